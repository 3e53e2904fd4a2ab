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
// (`isolation == nil ? body : rxIsolationChecked(body, isolation, name)`: in debug builds, handing every
// closure to a generic function costs two reabstraction thunks, measured at 8 300 instructions and
// 14 allocations per 12-operator subscription, and a thunk call per element). In debug builds a closure that has an actor is
// wrapped in a check that stops the program, naming the operator, the actor and the thread, when it
// is called off that actor. In release builds the closure is returned as it is: nothing is stored and
// nothing runs per element.
//
// `#isolation` is where the operator is called, not the closure's own isolation: a nonisolated function
// (or a `@Sendable` closure) passed from an actor-isolated context is checked as if it were isolated to
// that actor. Swift can tell the two apart (an `@isolated(any)` parameter), but a function value
// converted to `@isolated(any)` is called through a thunk: 23 more instructions per element in release
// builds, measured, for every operator. The article says how to write such a chain instead.

// Called by the public operators with their `isolation` parameter; nothing to do when the caller had no
// actor. One overload per arity: a parameter pack here crashes Swift 6.3's compiler for a closure
// whose argument is itself a closure (`Single.create`), and typed throws (one overload for throwing
// and non-throwing closures) crash it too. The pack form serves the result selectors of
// combineLatest and zip (up to eight sources).

/// `body`, checked in debug builds to run on `isolation` (the caller's actor): a closure of no argument that may throw.
@inlinable
@inline(__always)
package func rxIsolationChecked<Result>(
    _ body: @escaping () throws -> Result, _ isolation: (any Actor)?, _ operatorName: StaticString
) -> () throws -> Result {
    #if DEBUG
        guard let isolation else { return body }
        return {
            rxVerifyIsolation(isolation, operatorName)
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
    _ body: @escaping () -> Result, _ isolation: (any Actor)?, _ operatorName: StaticString
) -> () -> Result {
    #if DEBUG
        guard let isolation else { return body }
        return {
            rxVerifyIsolation(isolation, operatorName)
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
    _ body: @escaping (Argument) throws -> Result, _ isolation: (any Actor)?, _ operatorName: StaticString
) -> (Argument) throws -> Result {
    #if DEBUG
        guard let isolation else { return body }
        return { argument in
            rxVerifyIsolation(isolation, operatorName)
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
    _ body: @escaping (Argument) -> Result, _ isolation: (any Actor)?, _ operatorName: StaticString
) -> (Argument) -> Result {
    #if DEBUG
        guard let isolation else { return body }
        return { argument in
            rxVerifyIsolation(isolation, operatorName)
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
    _ body: @escaping (First, Second) throws -> Result, _ isolation: (any Actor)?, _ operatorName: StaticString
) -> (First, Second) throws -> Result {
    #if DEBUG
        guard let isolation else { return body }
        return { first, second in
            rxVerifyIsolation(isolation, operatorName)
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
    _ body: @escaping (First, Second) -> Result, _ isolation: (any Actor)?, _ operatorName: StaticString
) -> (First, Second) -> Result {
    #if DEBUG
        guard let isolation else { return body }
        return { first, second in
            rxVerifyIsolation(isolation, operatorName)
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
    _ operatorName: StaticString
) -> (repeat each Argument) throws -> Result {
    #if DEBUG
        guard let isolation else { return body }
        return { (argument: repeat each Argument) throws -> Result in
            rxVerifyIsolation(isolation, operatorName)
            return try body(repeat each argument)
        }
    #else
        return body
    #endif
}

/// ``rxIsolationCheckedSelector(_:_:_:)`` for a result selector that does not throw (Infallible,
/// Driver, Signal).
@inlinable
@inline(__always)
package func rxIsolationCheckedSelector<each Argument, Result>(
    _ body: @escaping (repeat each Argument) -> Result, _ isolation: (any Actor)?, _ operatorName: StaticString
) -> (repeat each Argument) -> Result {
    #if DEBUG
        guard let isolation else { return body }
        return { (argument: repeat each Argument) -> Result in
            rxVerifyIsolation(isolation, operatorName)
            return body(repeat each argument)
        }
    #else
        return body
    #endif
}

/// ``rxIsolationChecked(_:_:_:)`` for `scan(into:)`'s accumulator (a pack cannot be `inout`).
@inlinable
@inline(__always)
package func rxIsolationChecked<State, Element>(
    _ body: @escaping (inout State, Element) throws -> Void, _ isolation: (any Actor)?, _ operatorName: StaticString
) -> (inout State, Element) throws -> Void {
    #if DEBUG
        guard let isolation else { return body }
        return { state, element in
            rxVerifyIsolation(isolation, operatorName)
            try body(&state, element)
        }
    #else
        return body
    #endif
}

/// ``rxIsolationChecked(_:_:_:)`` for a `scan(into:)` accumulator that does not throw.
@inlinable
@inline(__always)
package func rxIsolationChecked<State, Element>(
    _ body: @escaping (inout State, Element) -> Void, _ isolation: (any Actor)?, _ operatorName: StaticString
) -> (inout State, Element) -> Void {
    #if DEBUG
        guard let isolation else { return body }
        return { state, element in
            rxVerifyIsolation(isolation, operatorName)
            body(&state, element)
        }
    #else
        return body
    #endif
}

// Optional closures (`subscribe(onNext:)`, `do(onNext:)`) have an arity each: Swift 6.3 cannot
// abstract an optional of a variadic function type.

/// ``rxIsolationChecked(_:_:_:)`` for an optional closure of one argument.
@inlinable
@inline(__always)
package func rxIsolationChecked<Argument, Result>(
    _ body: ((Argument) -> Result)?, _ isolation: (any Actor)?, _ operatorName: StaticString
) -> ((Argument) -> Result)? {
    body.map { rxIsolationChecked($0, isolation, operatorName) }
}

/// ``rxIsolationChecked(_:_:_:)`` for an optional throwing closure of one argument.
@inlinable
@inline(__always)
package func rxIsolationChecked<Argument, Result>(
    _ body: ((Argument) throws -> Result)?, _ isolation: (any Actor)?, _ operatorName: StaticString
) -> ((Argument) throws -> Result)? {
    body.map { rxIsolationChecked($0, isolation, operatorName) }
}

/// ``rxIsolationChecked(_:_:_:)`` for an optional closure of two arguments (`subscribe(with:onNext:)`).
@inlinable
@inline(__always)
package func rxIsolationChecked<First, Second, Result>(
    _ body: ((First, Second) -> Result)?, _ isolation: (any Actor)?, _ operatorName: StaticString
) -> ((First, Second) -> Result)? {
    body.map { rxIsolationChecked($0, isolation, operatorName) }
}

/// ``rxIsolationChecked(_:_:_:)`` for an optional closure with no argument.
@inlinable
@inline(__always)
package func rxIsolationChecked<Result>(
    _ body: (() -> Result)?, _ isolation: (any Actor)?, _ operatorName: StaticString
) -> (() -> Result)? {
    body.map { rxIsolationChecked($0, isolation, operatorName) }
}

/// ``rxIsolationChecked(_:_:_:)`` for an optional throwing closure with no argument.
@inlinable
@inline(__always)
package func rxIsolationChecked<Result>(
    _ body: (() throws -> Result)?, _ isolation: (any Actor)?, _ operatorName: StaticString
) -> (() throws -> Result)? {
    body.map { rxIsolationChecked($0, isolation, operatorName) }
}

/// Stops the program unless the caller runs on `isolation`'s executor, with a message that names the
/// operator, the actor and the thread. Debug builds only.
@inline(never)
@usableFromInline
func rxVerifyIsolation(_ isolation: any Actor, _ operatorName: StaticString) {
    if isolation is MainActor {
        // On Linux the main actor's executor is the main queue; `isMainThread` also answers true on a
        // thread of libdispatch's running the main queue (under `dispatchMain()`).
        if isMainThread { return }
    } else if let isCurrent = currentExecutorCheck {
        if isCurrent(isolation) { return }
    } else {
        // No non-trapping check in this runtime: Swift's own check, whose message names the actor.
        isolation.preconditionIsolated()
        return
    }
    rxFatalError(isolationViolationMessage(isolation, operatorName))
}

/// The report: what was called where, and what to write instead.
func isolationViolationMessage(_ isolation: any Actor, _ operatorName: StaticString) -> String {
    let actorName = isolation is MainActor ? "the main actor" : "actor \(type(of: isolation))"
    return """
        swift-rx: the closure given to `\(operatorName)` is isolated to \(actorName) (it was written \
        there), but swift-rx is calling it on \(currentThreadDescription()), off that actor: it would \
        race with the actor's own code. Deliver to the actor before this operator \
        (`observe(on: MainScheduler.instance)`, `asDriver`, `asSignal`, a `Binder`), or build this part \
        of the chain in a nonisolated function. See RxCocoa's article "Swift 6 and actors".
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
