/// A closure written on an actor that swift-rx called off that actor, as a debug build reports it to
/// ``Hooks/isolationViolationHandler``.
///
/// The closure was handed to an operator (`map`, `subscribe(onNext:)`, a `Binder`, …) from code isolated
/// to an actor — a `@MainActor` view controller, an `actor`'s method — and the operator called it on a
/// thread of another executor, where it races with the actor's own code.
public struct IsolationViolation: Sendable, CustomStringConvertible {
    /// The language mode of the module that called the operator.
    ///
    /// Swift checks isolation at run time only for Swift 6-mode code, and the default handler follows
    /// it: a Swift 6-mode caller is stopped, a Swift 5-mode one is told. A Swift 5-mode module built with
    /// the upcoming feature `ConciseMagicFile` counts as Swift 6 mode: the mode is read from how the
    /// caller spells `#file`.
    public enum LanguageMode: Sendable, Hashable {
        /// Swift 5 language mode (any strict-concurrency setting).
        case swift5
        /// Swift 6 language mode.
        case swift6
    }

    /// The report: the operator, where it was called, the actor, the thread, and what to write instead.
    public let message: String
    /// The operator the closure was given to, as the message names it (`map`, `subscribe(onNext:)`).
    public let operatorName: String
    /// The file the operator was called in, as `#fileID` spells it (`Module/File.swift`).
    public let file: String
    /// The line the operator was called on.
    public let line: UInt
    /// The language mode of the module that called the operator.
    public let callerLanguageMode: LanguageMode

    /// A report, for a test of a handler.
    public init(message: String, operatorName: String, file: String, line: UInt, callerLanguageMode: LanguageMode) {
        self.message = message
        self.operatorName = operatorName
        self.file = file
        self.line = line
        self.callerLanguageMode = callerLanguageMode
    }

    /// ``message``.
    public var description: String { message }
}
