extension ObservableType {
    /// Splits the sequence into groups of elements that share a key, delivering each group (a
    /// ``GroupedObservable``) when its first element arrives.
    ///
    /// Each group is hot: it delivers the elements that arrive while it is subscribed, starting with
    /// the one that opened it if it is subscribed from inside the `onNext` that delivers the group.
    /// The source's completion completes every group, then the result; an error (from the source or
    /// `keySelector`) is delivered to every group, then to the result. Disposing the result stops the
    /// delivery of new groups, but the source stays subscribed while any group is subscribed (as in
    /// RxSwift); its subscription ends when the result and every group subscription are disposed.
    /// No scheduler is used; `keySelector` runs on the source's thread.
    ///
    /// - Parameters:
    ///   - keySelector: The key of an element.
    ///   - isolation: Filled in by the compiler (see RxSwift's article “Parameters the compiler fills in”).
    ///   - callerFileID: Filled in by the compiler.
    ///   - callerLine: Filled in by the compiler.
    /// - Returns: The groups, in the order of their first elements.
    ///
    /// RxJS: `groupBy`; Combine: none.
    public func groupBy<Key: Hashable>(
        keySelector: @escaping (Element) throws -> Key, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) -> Observable<GroupedObservable<Key, Element>> {
        let keySelector =
            isolation == nil
            ? keySelector
            : rxIsolationChecked(keySelector, isolation, "groupBy(keySelector:)", callerFileID, callerLine)
        return GroupByObservable(source: asObservable(), keySelector: keySelector)
    }
}

final class GroupByObservable<Key: Hashable, Element>: Observable<GroupedObservable<Key, Element>>,
    @unchecked Sendable
{
    private let source: Observable<Element>
    private let keySelector: (Element) throws -> Key

    init(source: Observable<Element>, keySelector: @escaping (Element) throws -> Key) {
        self.source = source
        self.keySelector = keySelector
        super.init()
    }

    override func subscribe(sink downstream: Sink<GroupedObservable<Key, Element>>) -> Disposable {
        let sourceSubscription = SingleAssignmentDisposable()
        let subscriptions = RefCountDisposable(disposable: sourceSubscription)
        let sink = GroupBySink(
            keySelector: keySelector, sourceSubscription: sourceSubscription, subscriptions: subscriptions,
            downstream: downstream)
        sink.setUpstream(subscriptions)
        sourceSubscription.setDisposable(source.subscribe(sink: sink))
        return sink.asDisposable
    }
}

/// Routes each element to its group's subject.
///
/// Its upstream is the primary reference of a `RefCountDisposable` over the source subscription; each
/// group subscription holds another reference, so disposing this sink ends the source subscription
/// only once no group is subscribed. Elements keep reaching the groups after this sink was disposed.
/// A terminal event ends the source subscription at once.
///
/// Thread-safety: `groups` and `ended` are touched only by the source's serialized calls.
final class GroupBySink<Key: Hashable, Element>: OperatorSink<Element, GroupedObservable<Key, Element>>,
    @unchecked Sendable
{
    private let keySelector: (Element) throws -> Key
    private let sourceSubscription: SingleAssignmentDisposable
    private let subscriptions: RefCountDisposable
    @exclusivity(unchecked) private var groups: [Key: PublishSubject<Element>] = [:]
    @exclusivity(unchecked) private var ended = false

    init(
        keySelector: @escaping (Element) throws -> Key, sourceSubscription: SingleAssignmentDisposable,
        subscriptions: RefCountDisposable, downstream: Sink<GroupedObservable<Key, Element>>
    ) {
        self.keySelector = keySelector
        self.sourceSubscription = sourceSubscription
        self.subscriptions = subscriptions
        super.init(downstream: downstream)
    }

    override func next(_ element: Element) {
        guard !ended else { return }
        let key: Key
        do {
            key = try keySelector(element)
        } catch {
            end(.error(error))
            return
        }
        let subject: PublishSubject<Element>
        if let existing = groups[key] {
            subject = existing
        } else {
            subject = PublishSubject()
            groups[key] = subject
            let group = GroupSubjectObservable(subject: subject, subscriptions: subscriptions)
            forward(GroupedObservable(key: key, source: group))
        }
        subject.onNext(element)
    }

    override func terminate(_ termination: Termination) {
        end(termination)
    }

    /// Ends every group, then the result, then the source subscription: directly, whatever group
    /// subscriptions remain (as RxSwift does; a throwing `keySelector` ends a source that is still
    /// running).
    private func end(_ termination: Termination) {
        guard !ended else { return }
        ended = true
        let subjects = groups.values
        groups = [:]
        for subject in subjects { subject.on(termination.event()) }
        forwardTermination(termination)
        subscriptions.dispose()
        sourceSubscription.dispose()
    }
}

/// A group's elements: subscribing holds a reference to the source subscription.
final class GroupSubjectObservable<Element>: Observable<Element>, @unchecked Sendable {
    private let subject: PublishSubject<Element>
    private let subscriptions: RefCountDisposable

    init(subject: PublishSubject<Element>, subscriptions: RefCountDisposable) {
        self.subject = subject
        self.subscriptions = subscriptions
    }

    override func subscribe(sink downstream: Sink<Element>) -> Disposable {
        let reference = subscriptions.retain()
        let subscription = subject.subscribe(SinkObserver(downstream))
        return Disposables.create(subscription, reference)
    }
}
