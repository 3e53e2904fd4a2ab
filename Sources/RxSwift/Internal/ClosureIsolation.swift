import Dispatch

// Swift 6 isolation of operator closures (see RxCocoa's article "Swift 6 and actors").
//
// A closure literal that is not `@Sendable`, written in an actor-isolated context (a `@MainActor` view
// controller, an `actor`'s method), is isolated to that actor. Swift lets it be passed to a
// nonisolated operator, which may later call it on any thread: the compiler cannot see that the
// operator hands it to a scheduler. Every public operator that takes a closure therefore also takes
// `isolation: (any Actor)? = #isolation` — the caller's isolation, which is the closure literal's — and
// passes its closures through `rxIsolationChecked` when the caller had one
// (`isolation == nil ? body : rxIsolationChecked(body, isolation, name, callerFileID, callerLine)`: in debug builds, handing every closure to a generic function costs two reabstraction
// thunks per closure and a thunk call per element, which the `Creating/just(1) → 12 operators`
// benchmark shows when counted in a debug build). `Tools/check-isolation-checks.py`, run by CI, fails
// when an operator taking `isolation:` lets one of its escaping closures through unchecked, so the
// rule cannot be forgotten. In debug builds a closure that has an actor is wrapped in a check that, when it is
// called off that actor, reports it to `Hooks.isolationViolationHandler`, naming the operator, where it
// was called, the actor and the thread. In release builds the closure is returned as it is: nothing is
// stored and nothing runs per element.
//
// What a report does is up to `Hooks.isolationViolationHandler`: by default it prints once per call
// site and goes on, in either language mode — RxSwift code (its own suite, books, community libraries)
// delivers into main-actor closures from background threads and must go on running. Telling a Swift
// 6-mode caller from a Swift 5-mode one would take a macro in every operator's default arguments (only
// a macro's expansion is compiled in the caller's mode), and a macro expanded at every call site made
// client code type-check slower than against RxSwift (Benchmarks/TypeCheck). So every operator takes
// `callerFileID: StaticString = #fileID` and `callerLine: UInt = #line` after `isolation:`, last, so
// they change neither argument labels nor trailing-closure matching: they say which call site has
// reported. In release builds they are unused; an inlined operator drops them.
//
// `#isolation` is where the operator is called, not the closure's own isolation: a nonisolated function
// (or a `@Sendable` closure) passed from an actor-isolated context is checked as if it were isolated to
// that actor. Swift can tell the two apart (an `@isolated(any)` parameter), but a function value
// converted to `@isolated(any)` is called through a thunk, a cost per element in release builds for
// every operator (the `Pumping` benchmarks show it). The article says how to write such a chain
// instead.

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
    _ callerFileID: StaticString, _ callerLine: UInt
) -> () throws -> Result {
    #if DEBUG
        guard let isolation else { return body }
        let site = IsolationCallSite(operatorName, callerFileID, callerLine)
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
    _ callerFileID: StaticString, _ callerLine: UInt
) -> () -> Result {
    #if DEBUG
        guard let isolation else { return body }
        let site = IsolationCallSite(operatorName, callerFileID, callerLine)
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
    _ callerFileID: StaticString, _ callerLine: UInt
) -> (Argument) throws -> Result {
    #if DEBUG
        guard let isolation else { return body }
        let site = IsolationCallSite(operatorName, callerFileID, callerLine)
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
    _ callerFileID: StaticString, _ callerLine: UInt
) -> (Argument) -> Result {
    #if DEBUG
        guard let isolation else { return body }
        let site = IsolationCallSite(operatorName, callerFileID, callerLine)
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
    _ callerFileID: StaticString, _ callerLine: UInt
) -> (First, Second) throws -> Result {
    #if DEBUG
        guard let isolation else { return body }
        let site = IsolationCallSite(operatorName, callerFileID, callerLine)
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
    _ callerFileID: StaticString, _ callerLine: UInt
) -> (First, Second) -> Result {
    #if DEBUG
        guard let isolation else { return body }
        let site = IsolationCallSite(operatorName, callerFileID, callerLine)
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
    _ operatorName: StaticString, _ callerFileID: StaticString, _ callerLine: UInt
) -> (repeat each Argument) throws -> Result {
    #if DEBUG
        guard let isolation else { return body }
        let site = IsolationCallSite(operatorName, callerFileID, callerLine)
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
    _ callerFileID: StaticString, _ callerLine: UInt
) -> (repeat each Argument) -> Result {
    #if DEBUG
        guard let isolation else { return body }
        let site = IsolationCallSite(operatorName, callerFileID, callerLine)
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
    _ callerFileID: StaticString, _ callerLine: UInt
) -> (inout State, Element) throws -> Void {
    #if DEBUG
        guard let isolation else { return body }
        let site = IsolationCallSite(operatorName, callerFileID, callerLine)
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
    _ callerFileID: StaticString, _ callerLine: UInt
) -> (inout State, Element) -> Void {
    #if DEBUG
        guard let isolation else { return body }
        let site = IsolationCallSite(operatorName, callerFileID, callerLine)
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
    _ callerFileID: StaticString, _ callerLine: UInt
) -> ((Argument) -> Result)? {
    body.map { rxIsolationChecked($0, isolation, operatorName, callerFileID, callerLine) }
}

/// ``rxIsolationChecked(_:_:_:_:_:_:)`` for an optional throwing closure of one argument.
@inlinable
@inline(__always)
package func rxIsolationChecked<Argument, Result>(
    _ body: ((Argument) throws -> Result)?, _ isolation: (any Actor)?, _ operatorName: StaticString,
    _ callerFileID: StaticString, _ callerLine: UInt
) -> ((Argument) throws -> Result)? {
    body.map { rxIsolationChecked($0, isolation, operatorName, callerFileID, callerLine) }
}

/// ``rxIsolationChecked(_:_:_:_:_:_:)`` for an optional closure of two arguments (`subscribe(with:onNext:)`).
@inlinable
@inline(__always)
package func rxIsolationChecked<First, Second, Result>(
    _ body: ((First, Second) -> Result)?, _ isolation: (any Actor)?, _ operatorName: StaticString,
    _ callerFileID: StaticString, _ callerLine: UInt
) -> ((First, Second) -> Result)? {
    body.map { rxIsolationChecked($0, isolation, operatorName, callerFileID, callerLine) }
}

/// ``rxIsolationChecked(_:_:_:_:_:_:)`` for an optional closure with no argument.
@inlinable
@inline(__always)
package func rxIsolationChecked<Result>(
    _ body: (() -> Result)?, _ isolation: (any Actor)?, _ operatorName: StaticString,
    _ callerFileID: StaticString, _ callerLine: UInt
) -> (() -> Result)? {
    body.map { rxIsolationChecked($0, isolation, operatorName, callerFileID, callerLine) }
}

/// ``rxIsolationChecked(_:_:_:_:_:_:)`` for an optional throwing closure with no argument.
@inlinable
@inline(__always)
package func rxIsolationChecked<Result>(
    _ body: (() throws -> Result)?, _ isolation: (any Actor)?, _ operatorName: StaticString,
    _ callerFileID: StaticString, _ callerLine: UInt
) -> (() throws -> Result)? {
    body.map { rxIsolationChecked($0, isolation, operatorName, callerFileID, callerLine) }
}
