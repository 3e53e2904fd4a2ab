/// A type that is both an observable sequence and an observer.
public protocol SubjectType: ObservableType {
    /// The observer side's type.
    associatedtype Observer: ObserverType

    /// The observer side of the subject.
    func asObserver() -> Observer
}

/// A subject whose observers can be told that the source feeding it let go for good (as when the
/// subject itself is released): for the private subject of a share's connection, whose only sender
/// is that connection.
protocol ReleasableSubject {
    func releaseObserversForGood()
}

extension PublishSubject: ReleasableSubject {
    func releaseObserversForGood() { core.detach() }
}

extension ReplaySubject: ReleasableSubject {
    func releaseObserversForGood() { core.detach() }
}
