// How a chain of stateless operators (`map`, `filter`) becomes sinks.
//
// Every operator's sink costs an allocation, a subscription and a virtual call per element, so the
// chain is not subscribed one sink per operator:
//
// - **Pairs, up to `runThreshold` (32) operators.** When a `map` or `filter` is subscribed, it asks its
//   source to subscribe it: `Observable.subscribe(mapAbove:downstream:)` and
//   `subscribe(filterAbove:downstream:)`
//   (in `Core/Observable.swift`, because Swift lets only a class's own body declare members that
//   subclasses override; by default they subscribe the operator's own sink). A source that is itself
//   a `map` or `filter` overrides them and answers with one sink that does both steps
//   (`StatelessPairs.swift`), subscribed to its own source. The sinks are made by factories that the
//   operators receive as default arguments (`MakeMapStage`, `MakeFilterStage`), evaluated in the
//   caller's module, where the element types are concrete: a sink made in this library's
//   unspecialized code would look its class metadata up on every subscription. Only pairs: two `map`s
//   in a row would need a sink generic over three types, which no single operator's factory knows.
// - **Runs, past the threshold.** Programs that build chains by folding over data reach depths no
//   hand-written chain does, and nested sinks then cost a stack frame per operator to subscribe, to
//   deliver an element and to release: 100 000 `map`s overflow the main thread's stack. So a chain
//   is built as it is written, one operator over the other, and only subscribing and releasing
//   treat it differently past `runThreshold` operators in a row. The `map` or `filter` just above
//   every multiple of the threshold (the 33rd, 65th, … counted from the first source that is not a
//   `map`/`filter`) subscribes the chain below it as a *run* (`StatelessRun.swift`): its stages
//   made for the subscription by walking down the chain in a loop, type-erased, in an array,
//   and one sink that passes each element through them in a loop. So a subscription is at most
//   `runThreshold` nested sinks over one run, whatever the length. Releasing, an operator past the
//   threshold hands its source to a loop on its thread (a pthread key points to the loop's list)
//   instead of releasing it from its own deinitializer, which would nest one per operator. Building
//   costs the same per operator at any length, and so does each element (`Creating/subject → N × map,
//   built and released`, `Pumping/subject → N × map`). Each stage is made by a factory from the
//   caller's module too, so it moves elements of concrete types. The threshold is small enough that
//   the nested part stays a few kilobytes of stack (the `RxStackDepth` tool measures it), and large
//   enough that chains written by hand never reach it.
//
// Either way a subscription holds the operators' closures, never the operators (their observables):
// it keeps alive exactly what RxSwift's one-sink-per-operator subscription keeps alive, and nothing
// upstream. What is delivered, when, and what is disposed are the same as with a sink per operator.
// The `Pumping/subject → 32 × map/filter (pairs)`, `96 × map/filter (a run)` and `N × map` benchmarks
// measure both, per element and per subscription.
//
// Driver's and Signal's `map` and `filter` fuse differently: a Driver stage is a `map` followed by
// its share, so the map runs inside the share's relay (`_mapShared`, `_filterShared` in
// `Operators/Sharing`), one producer per stage. That fusion is of a stateless operator with a stateful
// one and cannot be a pair: a pair's sink serves one subscriber, a share's connection serves many.

/// Makes a `map`'s stage of a subscription: given a downstream, its sink, alone or fused with a
/// `filter` `before` or `after` it; without one, its stage of a run. One closure to store.
@usableFromInline
typealias MakeMapStage<Source, Result> = (
    _ transform: @escaping (Source) throws -> Result, _ before: ((Source) throws -> Bool)?,
    _ after: ((Result) throws -> Bool)?, _ downstream: Sink<Result>?
) -> AnyObject

/// Makes a `filter`'s stage: given a downstream, its sink, alone or fused with a second `filter`
/// (`then`); without one, its stage of a run.
@usableFromInline
typealias MakeFilterStage<Element> = (
    _ predicate: @escaping (Element) throws -> Bool, _ then: ((Element) throws -> Bool)?, _ downstream: Sink<Element>?
) -> AnyObject

/// The sinks of `map`, `filter` and their pairs: a terminal event passes straight through. They guard
/// their input (``Sink/guardsItsInput``) and are released with their source, as a ``OneSourceSink``;
/// derived from ``OperatorSink`` directly, one class less deep.
@usableFromInline
class StatelessSink<Input, Output>: OperatorSink<Input, Output>, @unchecked Sendable {
    @usableFromInline
    override init(downstream: Sink<Output>) {
        super.init(downstream: downstream)
    }

    override final var guardsItsInput: Bool { true }

    override final var releasesWithItsSource: Bool { true }

    override final func terminate(_ termination: Termination) {
        forwardTermination(termination)
    }
}
