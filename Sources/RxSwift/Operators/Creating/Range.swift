extension ObservableType where Element: RxAbstractInteger {
    /// `count` consecutive integers from `start`, then completed, delivered one per scheduled step on
    /// `scheduler`. A negative `count`, or a range that overflows `Element`, is a programmer error and
    /// traps when the sequence is made, as in RxSwift. RxJS: `range`.
    public static func range(
        start: Element, count: Element, scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance
    ) -> Observable<Element> {
        precondition(count >= 0, "range: count can't be negative")
        precondition(count == 0 || start <= Element.max - (count - 1), "range: start + count overflows")
        return RangeObservable(start: start, count: count, scheduler: scheduler)
    }
}

final class RangeObservable<Element: RxAbstractInteger>: RecursiveSource<Element>, @unchecked Sendable {
    private let start: Element
    private let count: Element

    init(start: Element, count: Element, scheduler: ImmediateSchedulerType) {
        self.start = start
        self.count = count
        super.init(scheduler: scheduler)
    }

    override func run(_ downstream: Sink<Element>) -> Disposable {
        let sink = SourceSink(downstream: downstream)
        let start = self.start
        let count = self.count
        sink.setUpstream(
            scheduler.scheduleRecursive(Element(0)) { index, recurse in
                if index < count {
                    sink.forward(start + index)
                    recurse(index + 1)
                } else {
                    sink.forwardTermination(.completed)
                }
            })
        return sink.asDisposable
    }
}

extension ObservableType {
    /// Emits `initialState`, then each state `iterate` produces, while `condition` holds; delivered on
    /// `scheduler`. A throwing `condition` or `iterate` ends the sequence with its error.
    public static func generate(
        initialState: Element, condition: @escaping (Element) throws -> Bool,
        scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance,
        iterate: @escaping (Element) throws -> Element, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> Observable<Element> {
        let condition =
            isolation == nil
            ? condition
            : rxIsolationChecked(condition, isolation, "generate(condition:)", callerFileID, callerLine)
        let iterate =
            isolation == nil
            ? iterate
            : rxIsolationChecked(iterate, isolation, "generate(iterate:)", callerFileID, callerLine)
        return GenerateObservable(
            initialState: initialState, condition: condition, iterate: iterate, scheduler: scheduler)
    }

    /// Emits `element` forever, delivered on `scheduler`. Dispose to stop it.
    public static func repeatElement(
        _ element: Element, scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance
    ) -> Observable<Element> {
        generate(initialState: element, condition: { _ in true }, scheduler: scheduler, iterate: { $0 })
    }
}

final class GenerateObservable<Element>: RecursiveSource<Element>, @unchecked Sendable {
    private let initialState: Element
    private let condition: (Element) throws -> Bool
    private let iterate: (Element) throws -> Element

    init(
        initialState: Element, condition: @escaping (Element) throws -> Bool,
        iterate: @escaping (Element) throws -> Element, scheduler: ImmediateSchedulerType
    ) {
        self.initialState = initialState
        self.condition = condition
        self.iterate = iterate
        super.init(scheduler: scheduler)
    }

    override func run(_ downstream: Sink<Element>) -> Disposable {
        let sink = SourceSink(downstream: downstream)
        let condition = self.condition
        let iterate = self.iterate
        sink.setUpstream(
            scheduler.scheduleRecursive((initialState, true)) { step, recurse in
                do {
                    let state = step.1 ? step.0 : try iterate(step.0)
                    if try condition(state) {
                        sink.forward(state)
                        recurse((state, false))
                    } else {
                        sink.forwardTermination(.completed)
                    }
                } catch {
                    sink.forwardTermination(.error(error))
                }
            })
        return sink.asDisposable
    }
}
