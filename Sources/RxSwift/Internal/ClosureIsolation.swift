import Dispatch

#if canImport(Glibc)
    import Glibc

    // glibc hides these without _GNU_SOURCE; libdispatch's is not in its Swift overlay.
    @_silgen_name("pthread_getname_np")
    private func rxThreadName(_ thread: pthread_t, _ name: UnsafeMutablePointer<CChar>, _ length: Int) -> Int32
#elseif canImport(Darwin)
    import Darwin

    private func rxThreadName(_ thread: pthread_t, _ name: UnsafeMutablePointer<CChar>, _ length: Int) -> Int32 {
        pthread_getname_np(thread, name, length)
    }
#endif

@_silgen_name("dispatch_queue_get_label")
private func rxQueueLabel(_ queue: OpaquePointer?) -> UnsafePointer<CChar>?

// Swift 6 isolation of operator closures (see RxCocoa's article "Swift 6 and actors").
//
// A closure literal that is not `@Sendable`, written in an actor-isolated context (a `@MainActor` view
// controller, an `actor`'s method), is isolated to that actor. Swift lets it be passed to a
// nonisolated operator, which may later call it on any thread: the compiler cannot see that the
// operator hands it to a scheduler. Every public operator that takes a closure therefore also takes
// `isolation: (any Actor)? = #isolation` — the caller's isolation, which is the closure literal's — and
// passes its closures through `rxIsolationChecked` when the caller had one
// (`isolation == nil ? body : rxIsolationChecked(body, isolation, name, callerFile, callerFileID,
// callerLine)`: in debug builds, handing every closure to a generic function costs two reabstraction
// thunks, measured at 8 300 instructions and 14 allocations per 12-operator subscription, and a thunk
// call per element). In debug builds a closure that has an actor is wrapped in a check that, when it is
// called off that actor, reports it to `Hooks.isolationViolationHandler`, naming the operator, where it
// was called, the actor and the thread. In release builds the closure is returned as it is: nothing is
// stored and nothing runs per element.
//
// What a report does follows the caller's language mode, as Swift's own run-time isolation checks do
// (a Swift 6-mode feature): by default it stops a Swift 6-mode caller and prints once per call site for
// a Swift 5-mode one — RxSwift code of that mode (its own suite, books, community libraries) delivers
// into main-actor closures from background threads and must go on running. The operator cannot see its
// caller's mode, and a magic literal in a default argument (`file: StaticString = #file`) does not
// tell it either: it is spelled out in the declaring module, so `#file` there follows swift-rx's mode.
// A macro's expansion, though, is compiled where it is used: `#rxCallerFile` expands to `#file` in the
// caller's source, which Swift 6 mode spells as `#fileID` (SE-0274) and Swift 5 mode as `#filePath`.
// So every operator also takes `callerFile: StaticString = #rxCallerFile`, `callerFileID:
// StaticString = #fileID` and `callerLine: UInt = #line`: equal file strings mean Swift 6 mode (or
// Swift 5 mode with the upcoming feature `ConciseMagicFile`, which makes `#file` concise too, or a
// Swift 5-mode file compiled by a relative path that happens to read `Module/File.swift`), and the file
// and line say which call site has reported. The three parameters come after `isolation:`, last,
// so they change neither argument labels nor trailing-closure matching. In release builds they are
// unused; an inlined operator drops them, and a call to one that is not inlined passes seven more words
// (the RxSwift scenarios of Benchmarks/README.md, "The caller's language mode", measure it).
//
// `#isolation` is where the operator is called, not the closure's own isolation: a nonisolated function
// (or a `@Sendable` closure) passed from an actor-isolated context is checked as if it were isolated to
// that actor. Swift can tell the two apart (an `@isolated(any)` parameter), but a function value
// converted to `@isolated(any)` is called through a thunk: 23 more instructions per element in release
// builds, measured, for every operator. The article says how to write such a chain instead.

/// `#file` as the calling module's language mode spells it: the file's `#fileID` in Swift 6 mode, its
/// path in Swift 5 mode.
///
/// The default of every operator's `callerFile:` parameter, so that a debug build can tell a Swift 5-mode
/// caller from a Swift 6-mode one (see ``Hooks/isolationViolationHandler``). A plain `#file` in a
/// default argument would not do: it is spelled out where the operator is declared, in swift-rx's own
/// mode. A macro expands where it is used.
@freestanding(expression)
public macro rxCallerFile() -> StaticString = #file

// Called by the public operators with their `isolation` parameter; nothing to do when the caller had no
// actor. One overload per arity: a parameter pack here crashes Swift 6.3's compiler for a closure
// whose argument is itself a closure (`Single.create`), and typed throws (one overload for throwing
// and non-throwing closures) crash it too. The pack form serves the result selectors of
// combineLatest and zip (up to eight sources).

/// `body`, checked in debug builds to run on `isolation` (the caller's actor): a closure of no argument that may throw.
@inlinable
@inline(__always)
package func rxIsolationChecked<Result>(
    _ body: @escaping () throws -> Result, _ isolation: (any Actor)?, _ operatorName: StaticString,
    _ callerFile: StaticString, _ callerFileID: StaticString, _ callerLine: UInt
) -> () throws -> Result {
    #if DEBUG
        guard let isolation else { return body }
        let site = IsolationCallSite(operatorName, callerFile, callerFileID, callerLine)
        return {
            rxVerifyIsolation(isolation, site)
            return try body()
        }
    #else
        return body
    #endif
}

/// `body`, checked in debug builds to run on `isolation` (the caller's actor): a closure of no argument.
@inlinable
@inline(__always)
package func rxIsolationChecked<Result>(
    _ body: @escaping () -> Result, _ isolation: (any Actor)?, _ operatorName: StaticString,
    _ callerFile: StaticString, _ callerFileID: StaticString, _ callerLine: UInt
) -> () -> Result {
    #if DEBUG
        guard let isolation else { return body }
        let site = IsolationCallSite(operatorName, callerFile, callerFileID, callerLine)
        return {
            rxVerifyIsolation(isolation, site)
            return body()
        }
    #else
        return body
    #endif
}

/// `body`, checked in debug builds to run on `isolation` (the caller's actor): a closure of one argument that may throw.
@inlinable
@inline(__always)
package func rxIsolationChecked<Argument, Result>(
    _ body: @escaping (Argument) throws -> Result, _ isolation: (any Actor)?, _ operatorName: StaticString,
    _ callerFile: StaticString, _ callerFileID: StaticString, _ callerLine: UInt
) -> (Argument) throws -> Result {
    #if DEBUG
        guard let isolation else { return body }
        let site = IsolationCallSite(operatorName, callerFile, callerFileID, callerLine)
        return { argument in
            rxVerifyIsolation(isolation, site)
            return try body(argument)
        }
    #else
        return body
    #endif
}

/// `body`, checked in debug builds to run on `isolation` (the caller's actor): a closure of one argument.
@inlinable
@inline(__always)
package func rxIsolationChecked<Argument, Result>(
    _ body: @escaping (Argument) -> Result, _ isolation: (any Actor)?, _ operatorName: StaticString,
    _ callerFile: StaticString, _ callerFileID: StaticString, _ callerLine: UInt
) -> (Argument) -> Result {
    #if DEBUG
        guard let isolation else { return body }
        let site = IsolationCallSite(operatorName, callerFile, callerFileID, callerLine)
        return { argument in
            rxVerifyIsolation(isolation, site)
            return body(argument)
        }
    #else
        return body
    #endif
}

/// `body`, checked in debug builds to run on `isolation` (the caller's actor): a closure of two arguments that may throw.
@inlinable
@inline(__always)
package func rxIsolationChecked<First, Second, Result>(
    _ body: @escaping (First, Second) throws -> Result, _ isolation: (any Actor)?, _ operatorName: StaticString,
    _ callerFile: StaticString, _ callerFileID: StaticString, _ callerLine: UInt
) -> (First, Second) throws -> Result {
    #if DEBUG
        guard let isolation else { return body }
        let site = IsolationCallSite(operatorName, callerFile, callerFileID, callerLine)
        return { first, second in
            rxVerifyIsolation(isolation, site)
            return try body(first, second)
        }
    #else
        return body
    #endif
}

/// `body`, checked in debug builds to run on `isolation` (the caller's actor): a closure of two arguments.
@inlinable
@inline(__always)
package func rxIsolationChecked<First, Second, Result>(
    _ body: @escaping (First, Second) -> Result, _ isolation: (any Actor)?, _ operatorName: StaticString,
    _ callerFile: StaticString, _ callerFileID: StaticString, _ callerLine: UInt
) -> (First, Second) -> Result {
    #if DEBUG
        guard let isolation else { return body }
        let site = IsolationCallSite(operatorName, callerFile, callerFileID, callerLine)
        return { first, second in
            rxVerifyIsolation(isolation, site)
            return body(first, second)
        }
    #else
        return body
    #endif
}

/// `body`, checked in debug builds to run on `isolation`: a result selector of any arity
/// (combineLatest, zip).
@inlinable
@inline(__always)
package func rxIsolationCheckedSelector<each Argument, Result>(
    _ body: @escaping (repeat each Argument) throws -> Result, _ isolation: (any Actor)?,
    _ operatorName: StaticString, _ callerFile: StaticString, _ callerFileID: StaticString, _ callerLine: UInt
) -> (repeat each Argument) throws -> Result {
    #if DEBUG
        guard let isolation else { return body }
        let site = IsolationCallSite(operatorName, callerFile, callerFileID, callerLine)
        return { (argument: repeat each Argument) throws -> Result in
            rxVerifyIsolation(isolation, site)
            return try body(repeat each argument)
        }
    #else
        return body
    #endif
}

/// ``rxIsolationCheckedSelector(_:_:_:_:_:_:)`` for a result selector that does not throw (Infallible,
/// Driver, Signal).
@inlinable
@inline(__always)
package func rxIsolationCheckedSelector<each Argument, Result>(
    _ body: @escaping (repeat each Argument) -> Result, _ isolation: (any Actor)?, _ operatorName: StaticString,
    _ callerFile: StaticString, _ callerFileID: StaticString, _ callerLine: UInt
) -> (repeat each Argument) -> Result {
    #if DEBUG
        guard let isolation else { return body }
        let site = IsolationCallSite(operatorName, callerFile, callerFileID, callerLine)
        return { (argument: repeat each Argument) -> Result in
            rxVerifyIsolation(isolation, site)
            return body(repeat each argument)
        }
    #else
        return body
    #endif
}

/// ``rxIsolationChecked(_:_:_:_:_:_:)`` for `scan(into:)`'s accumulator (a pack cannot be `inout`).
@inlinable
@inline(__always)
package func rxIsolationChecked<State, Element>(
    _ body: @escaping (inout State, Element) throws -> Void, _ isolation: (any Actor)?, _ operatorName: StaticString,
    _ callerFile: StaticString, _ callerFileID: StaticString, _ callerLine: UInt
) -> (inout State, Element) throws -> Void {
    #if DEBUG
        guard let isolation else { return body }
        let site = IsolationCallSite(operatorName, callerFile, callerFileID, callerLine)
        return { state, element in
            rxVerifyIsolation(isolation, site)
            try body(&state, element)
        }
    #else
        return body
    #endif
}

/// ``rxIsolationChecked(_:_:_:_:_:_:)`` for a `scan(into:)` accumulator that does not throw.
@inlinable
@inline(__always)
package func rxIsolationChecked<State, Element>(
    _ body: @escaping (inout State, Element) -> Void, _ isolation: (any Actor)?, _ operatorName: StaticString,
    _ callerFile: StaticString, _ callerFileID: StaticString, _ callerLine: UInt
) -> (inout State, Element) -> Void {
    #if DEBUG
        guard let isolation else { return body }
        let site = IsolationCallSite(operatorName, callerFile, callerFileID, callerLine)
        return { state, element in
            rxVerifyIsolation(isolation, site)
            body(&state, element)
        }
    #else
        return body
    #endif
}

// Optional closures (`subscribe(onNext:)`, `do(onNext:)`) have an arity each: Swift 6.3 cannot
// abstract an optional of a variadic function type.

/// ``rxIsolationChecked(_:_:_:_:_:_:)`` for an optional closure of one argument.
@inlinable
@inline(__always)
package func rxIsolationChecked<Argument, Result>(
    _ body: ((Argument) -> Result)?, _ isolation: (any Actor)?, _ operatorName: StaticString,
    _ callerFile: StaticString, _ callerFileID: StaticString, _ callerLine: UInt
) -> ((Argument) -> Result)? {
    body.map { rxIsolationChecked($0, isolation, operatorName, callerFile, callerFileID, callerLine) }
}

/// ``rxIsolationChecked(_:_:_:_:_:_:)`` for an optional throwing closure of one argument.
@inlinable
@inline(__always)
package func rxIsolationChecked<Argument, Result>(
    _ body: ((Argument) throws -> Result)?, _ isolation: (any Actor)?, _ operatorName: StaticString,
    _ callerFile: StaticString, _ callerFileID: StaticString, _ callerLine: UInt
) -> ((Argument) throws -> Result)? {
    body.map { rxIsolationChecked($0, isolation, operatorName, callerFile, callerFileID, callerLine) }
}

/// ``rxIsolationChecked(_:_:_:_:_:_:)`` for an optional closure of two arguments (`subscribe(with:onNext:)`).
@inlinable
@inline(__always)
package func rxIsolationChecked<First, Second, Result>(
    _ body: ((First, Second) -> Result)?, _ isolation: (any Actor)?, _ operatorName: StaticString,
    _ callerFile: StaticString, _ callerFileID: StaticString, _ callerLine: UInt
) -> ((First, Second) -> Result)? {
    body.map { rxIsolationChecked($0, isolation, operatorName, callerFile, callerFileID, callerLine) }
}

/// ``rxIsolationChecked(_:_:_:_:_:_:)`` for an optional closure with no argument.
@inlinable
@inline(__always)
package func rxIsolationChecked<Result>(
    _ body: (() -> Result)?, _ isolation: (any Actor)?, _ operatorName: StaticString,
    _ callerFile: StaticString, _ callerFileID: StaticString, _ callerLine: UInt
) -> (() -> Result)? {
    body.map { rxIsolationChecked($0, isolation, operatorName, callerFile, callerFileID, callerLine) }
}

/// ``rxIsolationChecked(_:_:_:_:_:_:)`` for an optional throwing closure with no argument.
@inlinable
@inline(__always)
package func rxIsolationChecked<Result>(
    _ body: (() throws -> Result)?, _ isolation: (any Actor)?, _ operatorName: StaticString,
    _ callerFile: StaticString, _ callerFileID: StaticString, _ callerLine: UInt
) -> (() throws -> Result)? {
    body.map { rxIsolationChecked($0, isolation, operatorName, callerFile, callerFileID, callerLine) }
}

/// Where a checked closure was handed to an operator: the operator, the caller's file (as the caller's
/// language mode spells `#file`, and as `#fileID`) and line. Built once per checked closure, in debug
/// builds only.
@usableFromInline
struct IsolationCallSite: Sendable {
    let operatorName: StaticString
    let file: StaticString
    let fileID: StaticString
    let line: UInt

    @usableFromInline
    init(_ operatorName: StaticString, _ file: StaticString, _ fileID: StaticString, _ line: UInt) {
        self.operatorName = operatorName
        self.file = file
        self.fileID = fileID
        self.line = line
    }

    /// Swift 6 mode spells `#file` as `#fileID`; Swift 5 mode as the file's path.
    var callerLanguageMode: IsolationViolation.LanguageMode {
        file.description == fileID.description ? .swift6 : .swift5
    }
}

/// Reports to ``Hooks/isolationViolationHandler`` unless the caller runs on `isolation`'s executor.
/// Debug builds only.
@inline(never)
@usableFromInline
func rxVerifyIsolation(_ isolation: any Actor, _ site: IsolationCallSite) {
    if isolation is MainActor {
        // On Linux the main actor's executor is the main queue; `isMainThread` also answers true on a
        // thread of libdispatch's running the main queue (under `dispatchMain()`).
        if isMainThread { return }
    } else if let isCurrent = currentExecutorCheck {
        if isCurrent(isolation) { return }
    } else {
        // No non-trapping check in this runtime, so no report to make: a Swift 6-mode caller gets
        // Swift's own check (whose message names the actor), a Swift 5-mode one what Swift gives it,
        // nothing.
        if site.callerLanguageMode == .swift6 { isolation.preconditionIsolated() }
        return
    }
    Hooks.reportIsolationViolation(
        IsolationViolation(
            message: isolationViolationMessage(isolation, site), operatorName: site.operatorName.description,
            file: site.fileID.description, line: site.line, callerLanguageMode: site.callerLanguageMode))
}

/// The report: what was called where, and what to write instead.
func isolationViolationMessage(_ isolation: any Actor, _ site: IsolationCallSite) -> String {
    let actorName = isolation is MainActor ? "the main actor" : "actor \(type(of: isolation))"
    return """
        swift-rx: the closure given to `\(site.operatorName)` at \(site.fileID):\(site.line) is isolated to \
        \(actorName) (it was written there), but swift-rx is calling it on \(currentThreadDescription()), \
        off that actor: it would race with the actor's own code. Deliver to the actor before this \
        operator (`observe(on: MainScheduler.instance)`, `asDriver`, `asSignal`, a `Binder`), or build \
        this part of the chain in a nonisolated function. See RxCocoa's article "Swift 6 and actors".
        """
}

/// The current thread, as a person debugging would look for it: its name and its dispatch queue's label.
func currentThreadDescription() -> String {
    var parts: [String] = []
    #if canImport(Glibc) || canImport(Darwin)
        var name = [CChar](repeating: 0, count: 64)
        if rxThreadName(pthread_self(), &name, name.count) == 0, name[0] != 0 {
            parts.append(
                "thread \"\(String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))\"")
        }
    #endif
    // A null queue asks for the current queue's label.
    if let label = rxQueueLabel(nil).map({ String(cString: $0) }), !label.isEmpty {
        parts.append("queue \"\(label)\"")
    }
    if isMainThread { parts.append("the main thread") }
    return parts.isEmpty ? "an unnamed thread" : parts.joined(separator: ", ")
}

/// The runtime's non-trapping form of the check `preconditionIsolated` makes
/// (`swift_task_isCurrentExecutorWithFlags` with no flags: answer, do not assert). It is not public
/// API, so it is looked up by name; when it is missing the check falls back to Swift's own.
private let currentExecutorCheck: (@Sendable (any Actor) -> Bool)? = {
    #if canImport(Glibc) || canImport(Darwin)
        #if canImport(Darwin)
            let everywhere = UnsafeMutableRawPointer(bitPattern: -2)
        #else
            let everywhere: UnsafeMutableRawPointer? = nil
        #endif
        guard let symbol = dlsym(everywhere, "swift_task_isCurrentExecutorWithFlags") else { return nil }
        // The executor reference is two words (identity, implementation), passed as two arguments;
        // the Swift calling convention passes them as C does.
        typealias Check = @convention(c) (UnsafeRawPointer?, UInt, UInt) -> Bool
        let check = unsafeBitCast(symbol, to: Check.self)
        guard MemoryLayout<UnownedSerialExecutor>.size == 2 * MemoryLayout<UInt>.size else { return nil }
        return { isolation in
            let words = unsafeBitCast(isolation.unownedExecutor, to: (UnsafeRawPointer?, UInt).self)
            return check(words.0, words.1, 0)
        }
    #else
        return nil
    #endif
}()
