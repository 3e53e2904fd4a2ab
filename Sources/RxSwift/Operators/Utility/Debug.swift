import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension ObservableType {
    /// Prints every event of every subscription to standard output, and passes the events on
    /// unchanged.
    ///
    /// Each line has RxSwift's format: a local timestamp (`yyyy-MM-dd HH:mm:ss.SSS`), the identifier,
    /// `->` and what happened: `subscribed` (before the source is subscribed), `Event next(…)`,
    /// `Event error(…)`, `Event completed`, and `isDisposed` once the subscription ends, whether by a
    /// terminal event or by disposal. For example:
    ///
    /// ```
    /// 2024-05-01 09:30:12.345: Search.swift:42 (load()) -> Event next(3)
    /// ```
    ///
    /// Completes, errors and disposes as the source does. No scheduler; lines are printed on the
    /// thread that delivers the event. RxJS: `tap(console.log)`; Combine: `print`.
    ///
    /// - Parameters:
    ///   - identifier: What to print before each event; by default `File.swift:line (function)` of
    ///     the call site.
    ///   - trimOutput: Whether an event description longer than 40 characters is shortened to its
    ///     first and last 20 characters around `...`.
    ///   - file: The call site's file (only its last path component is printed).
    ///   - line: The call site's line.
    ///   - function: The call site's function.
    /// - Returns: The source sequence, logged.
    public func debug(
        _ identifier: String? = nil, trimOutput: Bool = false, file: String = #file, line: UInt = #line,
        function: String = #function
    ) -> Observable<Element> {
        let name = identifier ?? DebugObservable<Element>.defaultIdentifier(file: file, line: line, function: function)
        return DebugObservable(source: asObservable(), identifier: name, trimOutput: trimOutput) { print($0) }
    }
}

final class DebugObservable<Element>: Observable<Element>, @unchecked Sendable {
    private let source: Observable<Element>
    private let identifier: String
    private let trimOutput: Bool
    /// Writes one line: `print` for the public operator, a recorder in tests.
    private let write: (String) -> Void

    init(source: Observable<Element>, identifier: String, trimOutput: Bool, write: @escaping (String) -> Void) {
        self.source = source
        self.identifier = identifier
        self.trimOutput = trimOutput
        self.write = write
        super.init()
    }

    /// `File.swift:line (function)`, as RxSwift names an unnamed `debug`.
    static func defaultIdentifier(file: String, line: UInt, function: String) -> String {
        let fileName = file.lastIndex(of: "/").map { file[file.index(after: $0)...] } ?? file[...]
        return "\(fileName):\(line) (\(function))"
    }

    override func subscribe(sink downstream: Sink<Element>) -> Disposable {
        let sink = DebugSink(identifier: identifier, trimOutput: trimOutput, write: write, downstream: downstream)
        sink.log("subscribed")
        sink.setUpstream(source.subscribe(sink: sink))
        return sink.asDisposable
    }
}

final class DebugSink<Element>: OneSourceSink<Element, Element>, @unchecked Sendable {
    private static var maximumEventLength: Int { 40 }

    private let identifier: String
    private let trimOutput: Bool
    private let write: (String) -> Void
    private let loggedDisposal = Atomic<Bool>(false)

    init(identifier: String, trimOutput: Bool, write: @escaping (String) -> Void, downstream: Sink<Element>) {
        self.identifier = identifier
        self.trimOutput = trimOutput
        self.write = write
        super.init(downstream: downstream)
    }

    func log(_ content: String) {
        write("\(DebugTimestamp.now()): \(identifier) -> \(content)")
    }

    private func logEvent(_ description: String) {
        let limit = Self.maximumEventLength
        let text =
            trimOutput && description.count > limit
            ? "\(description.prefix(limit / 2))...\(description.suffix(limit / 2))" : description
        log("Event \(text)")
    }

    override func next(_ element: Element) {
        // Logged even after disposal, as RxSwift does: the line shows what the source still sent.
        logEvent(Event<Element>.next(element).debugDescription)
        forward(element)
    }

    override func terminate(_ termination: Termination) {
        logEvent(termination.event(of: Element.self).debugDescription)
        forwardTermination(termination)
    }

    override func dispose() {
        // Logged before the source is disposed, so a chain of `debug`s logs from the outside in.
        if !loggedDisposal.exchange(true, ordering: .acquiringAndReleasing) {
            log("isDisposed")
        }
        super.dispose()
    }
}

/// The local time as RxSwift's `debug` prints it, `yyyy-MM-dd HH:mm:ss.SSS`, without Foundation's
/// `DateFormatter` (the C library's `localtime_r` gives the same local calendar fields).
enum DebugTimestamp {
    static func now() -> String {
        format(secondsSince1970: Date().timeIntervalSince1970)
    }

    static func format(secondsSince1970 time: Double) -> String {
        // Whole milliseconds first, as `DateFormatter` does, then split.
        let totalMilliseconds = (time * 1000).rounded(.down)
        let wholeSeconds = (totalMilliseconds / 1000).rounded(.down)
        let milliseconds = Int(totalMilliseconds - wholeSeconds * 1000)
        var seconds = time_t(wholeSeconds)
        var fields = tm()
        localtime_r(&seconds, &fields)
        return "\(pad(Int(fields.tm_year) + 1900, 4))-\(pad(Int(fields.tm_mon) + 1, 2))-\(pad(Int(fields.tm_mday), 2)) "
            + "\(pad(Int(fields.tm_hour), 2)):\(pad(Int(fields.tm_min), 2)):\(pad(Int(fields.tm_sec), 2))"
            + ".\(pad(milliseconds, 3))"
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
