import RxSwift

extension ObservableType {
    /// Both sources' events; the first stop event of either stops it and disposes both. RxBluetoothKit
    /// merges a state's errors into an operation this way.
    static func absorb(_ a: Observable<Element>, _ b: Observable<Element>) -> Observable<Element> {
        .create { observer in
            let disposable = CompositeDisposable()
            let inner = AnyObserver<Element> { event in
                observer.on(event)
                if event.isStopEvent { disposable.dispose() }
            }
            _ = disposable.insert(a.subscribe(inner))
            if !disposable.isDisposed { _ = disposable.insert(b.subscribe(inner)) }
            return disposable
        }
    }
}
