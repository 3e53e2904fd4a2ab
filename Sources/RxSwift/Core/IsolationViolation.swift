/// A closure written on an actor that swift-rx called off that actor, as a debug build reports it to
/// ``Hooks/isolationViolationHandler``.
///
/// The closure was handed to an operator (`map`, `subscribe(onNext:)`, a `Binder`, …) from code isolated
/// to an actor — a `@MainActor` view controller, an `actor`'s method — and the operator called it on a
/// thread of another executor, where it races with the actor's own code.
public struct IsolationViolation: Sendable, CustomStringConvertible {
    /// The report: the operator, where it was called, the actor, the thread, and what to write instead.
    public let message: String
    /// The operator the closure was given to, as the message names it (`map`, `subscribe(onNext:)`).
    public let operatorName: String
    /// The file the operator was called in, as `#fileID` spells it (`Module/File.swift`).
    public let file: String
    /// The line the operator was called on.
    public let line: UInt

    /// A report, for a test of a handler.
    public init(message: String, operatorName: String, file: String, line: UInt) {
        self.message = message
        self.operatorName = operatorName
        self.file = file
        self.line = line
    }

    /// ``message``.
    public var description: String { message }
}
