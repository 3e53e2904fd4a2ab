import RxSwift

extension ObservableType {
    /// Forwards every element of this sequence to `relays`.
    ///
    /// Completion of the source is ignored (relays never terminate). An error of the source is a
    /// programmer error: it stops debug builds with an assertion and is printed in release builds.
    /// RxSwift: the same (RxRelay).
    public func bind(to relays: PublishRelay<Element>...) -> Disposable {
        bind(accept: { element in relays.forEach { $0.accept(element) } })
    }

    /// Forwards every element of this sequence, as an optional, to `relays`.
    ///
    /// Completion is ignored; an error is a programmer error. See the non-optional overload.
    public func bind(to relays: PublishRelay<Element?>...) -> Disposable {
        bind(accept: { element in relays.forEach { $0.accept(element) } })
    }

    /// Makes every element of this sequence the current value of `relays`.
    ///
    /// Completion of the source is ignored (relays never terminate). An error of the source is a
    /// programmer error: it stops debug builds with an assertion and is printed in release builds.
    public func bind(to relays: BehaviorRelay<Element>...) -> Disposable {
        bind(accept: { element in relays.forEach { $0.accept(element) } })
    }

    /// Makes every element of this sequence, as an optional, the current value of `relays`.
    ///
    /// Completion is ignored; an error is a programmer error.
    public func bind(to relays: BehaviorRelay<Element?>...) -> Disposable {
        bind(accept: { element in relays.forEach { $0.accept(element) } })
    }

    /// Forwards every element of this sequence to `relays`, which remember it for replay.
    ///
    /// Completion of the source is ignored (relays never terminate). An error of the source is a
    /// programmer error: it stops debug builds with an assertion and is printed in release builds.
    public func bind(to relays: ReplayRelay<Element>...) -> Disposable {
        bind(accept: { element in relays.forEach { $0.accept(element) } })
    }

    /// Forwards every element of this sequence, as an optional, to `relays`.
    ///
    /// Completion is ignored; an error is a programmer error.
    public func bind(to relays: ReplayRelay<Element?>...) -> Disposable {
        bind(accept: { element in relays.forEach { $0.accept(element) } })
    }

    private func bind(accept: @escaping (Element) -> Void) -> Disposable {
        subscribe(onNext: accept, onError: { error in relayBindingError(error) })
    }
}

/// Reports an error that reached a relay binding: relays cannot carry errors, so the source was
/// expected never to fail.
func relayBindingError(_ error: Swift.Error) {
    let message = "Binding error to relay: \(error)"
    #if DEBUG
        assertionFailure(message)
    #else
        print(message)
    #endif
}
