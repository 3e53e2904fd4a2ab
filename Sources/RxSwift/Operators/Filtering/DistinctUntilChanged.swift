extension ObservableType where Element: Equatable {
    /// Passes on an element only when it differs (by `==`) from the element passed on before it.
    ///
    /// The first element always passes. Completes and errors when the source does. No scheduler; no
    /// lock or allocation per element. RxJS: `distinctUntilChanged`; Combine: `removeDuplicates()`.
    public func distinctUntilChanged() -> Observable<Element> {
        DistinctUntilChangedEquatableObservable(source: asObservable())
    }
}

extension ObservableType {
    /// Passes on an element only when the key `keySelector` computes for it differs (by `==`) from
    /// the key of the element passed on before it.
    ///
    /// The first element always passes. Completes and errors when the source does; a throwing
    /// `keySelector` ends the sequence with its error and disposes the source. No scheduler.
    /// RxJS: `distinctUntilKeyChanged` / `distinctUntilChanged(null, keySelector)`;
    /// Combine: `removeDuplicates(by:)`.
    public func distinctUntilChanged<Key: Equatable>(
        _ keySelector: @escaping (Element) throws -> Key, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    )
        -> Observable<Element>
    {
        let keySelector =
            isolation == nil
            ? keySelector
            : rxIsolationChecked(keySelector, isolation, "distinctUntilChanged", callerFileID, callerLine)
        return DistinctUntilChangedObservable(source: asObservable(), keySelector: keySelector, comparer: ==)
    }

    /// Passes on an element only when `comparer` says it is not equal to the element passed on
    /// before it.
    ///
    /// `comparer` receives the previously passed element first and the new one second. The first
    /// element always passes. Completes and errors when the source does; a throwing `comparer` ends
    /// the sequence with its error and disposes the source. No scheduler.
    /// RxJS: `distinctUntilChanged(comparer)`; Combine: `removeDuplicates(by:)` / `tryRemoveDuplicates(by:)`.
    public func distinctUntilChanged(
        _ comparer: @escaping (Element, Element) throws -> Bool, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> Observable<Element> {
        let comparer =
            isolation == nil
            ? comparer
            : rxIsolationChecked(comparer, isolation, "distinctUntilChanged", callerFileID, callerLine)
        return DistinctUntilChangedObservable(source: asObservable(), keySelector: { $0 }, comparer: comparer)
    }

    /// Passes on an element only when `comparer` says its key (computed by `keySelector`) is not
    /// equal to the key of the element passed on before it.
    ///
    /// `comparer` receives the previous key first and the new key second; the key of a suppressed
    /// element is discarded, so comparisons are always against the last element passed on. The first
    /// element always passes. Completes and errors when the source does; a throwing `keySelector` or
    /// `comparer` ends the sequence with its error and disposes the source. No scheduler.
    /// RxJS: `distinctUntilChanged(comparer, keySelector)`; Combine: `removeDuplicates(by:)`.
    public func distinctUntilChanged<K>(
        _ keySelector: @escaping (Element) throws -> K, comparer: @escaping (K, K) throws -> Bool,
        isolation: (any Actor)? = #isolation, callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> Observable<Element> {
        let keySelector =
            isolation == nil
            ? keySelector
            : rxIsolationChecked(keySelector, isolation, "distinctUntilChanged", callerFileID, callerLine)
        let comparer =
            isolation == nil
            ? comparer
            : rxIsolationChecked(
                comparer, isolation, "distinctUntilChanged(comparer:)", callerFileID, callerLine)
        return DistinctUntilChangedObservable(source: asObservable(), keySelector: keySelector, comparer: comparer)
    }

    /// Passes on an element only when its value at `keyPath` differs (by `==`) from that of the
    /// element passed on before it.
    ///
    /// As in RxSwift, the previous element is kept and both values are read through `keyPath` at
    /// each comparison. The first element always passes. Completes and errors when the source does.
    /// No scheduler. RxJS: `distinctUntilKeyChanged`; Combine: `removeDuplicates(by:)`.
    public func distinctUntilChanged<Property: Equatable>(at keyPath: KeyPath<Element, Property>)
        -> Observable<Element>
    {
        distinctUntilChanged { $0[keyPath: keyPath] == $1[keyPath: keyPath] }
    }
}

final class DistinctUntilChangedEquatableObservable<Element: Equatable>: Observable<Element>, @unchecked Sendable {
    private let source: Observable<Element>

    init(source: Observable<Element>) {
        self.source = source
        super.init()
    }

    override func subscribe(sink downstream: Sink<Element>) -> Disposable {
        return DistinctUntilChangedEquatableSink(downstream: downstream).subscribed(to: source)
    }
}

/// The `Equatable` form without closures: one `==` per element.
final class DistinctUntilChangedEquatableSink<Element: Equatable>: OneSourceSink<Element, Element>,
    @unchecked Sendable
{
    /// Boxed rather than `Element?`, a metadata lookup per element in this unspecialized code.
    @exclusivity(unchecked) private var last: ElementBox<Element>?

    override func next(_ element: Element) {
        guard isForwarding else { return }
        if let last {
            if last.value == element { return }
            // Stored before forwarding, as in RxSwift, so a re-entrant element compares with this one.
            last.value = element
        } else {
            last = ElementBox(element)
        }
        downstream.next(element)
    }

    override func terminate(_ termination: Termination) {
        forwardTermination(termination)
    }
}

final class DistinctUntilChangedObservable<Element, Key>: Observable<Element>, @unchecked Sendable {
    private let source: Observable<Element>
    private let keySelector: (Element) throws -> Key
    private let comparer: (Key, Key) throws -> Bool

    init(
        source: Observable<Element>, keySelector: @escaping (Element) throws -> Key,
        comparer: @escaping (Key, Key) throws -> Bool
    ) {
        self.source = source
        self.keySelector = keySelector
        self.comparer = comparer
        super.init()
    }

    override func subscribe(sink downstream: Sink<Element>) -> Disposable {
        return DistinctUntilChangedSink(keySelector: keySelector, comparer: comparer, downstream: downstream)
            .subscribed(to: source)
    }
}

final class DistinctUntilChangedSink<Element, Key>: OneSourceSink<Element, Element>, @unchecked Sendable {
    private let keySelector: (Element) throws -> Key
    private let comparer: (Key, Key) throws -> Bool
    @exclusivity(unchecked) private var lastKey: Key?

    init(
        keySelector: @escaping (Element) throws -> Key, comparer: @escaping (Key, Key) throws -> Bool,
        downstream: Sink<Element>
    ) {
        self.keySelector = keySelector
        self.comparer = comparer
        super.init(downstream: downstream)
    }

    override func next(_ element: Element) {
        guard isForwarding else { return }
        do {
            let key = try keySelector(element)
            if let lastKey, try comparer(lastKey, key) { return }
            lastKey = key
            downstream.next(element)
        } catch {
            forwardTermination(.error(error))
        }
    }

    override func terminate(_ termination: Termination) {
        forwardTermination(termination)
    }
}

/// A mutable element held by reference, for sinks that remember one element.
final class ElementBox<Element> {
    var value: Element

    init(_ value: Element) {
        self.value = value
    }
}
