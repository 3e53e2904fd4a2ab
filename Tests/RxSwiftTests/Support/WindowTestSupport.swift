import RxSwift

extension ObservableType {
    /// Flattens a sequence of windows into one readable timeline: `"2["` when window 2 is emitted,
    /// `"2:x"` for its element `x`, `"2|"` / `"2#"` when it completes / errors. Every window is
    /// subscribed when it is emitted; disposing the result disposes the windows' subscriptions too.
    func windowTimeline<Inner>() -> Observable<String> where Element == Observable<Inner> {
        let windows = asObservable()
        return Observable.create { observer in
            let subscriptions = CompositeDisposable()
            var index = 0
            let outer = windows.subscribe(
                onNext: { window in
                    let number = index
                    index += 1
                    observer.onNext("\(number)[")
                    let inner = window.subscribe(
                        onNext: { observer.onNext("\(number):\($0)") },
                        onError: { _ in observer.onNext("\(number)#") },
                        onCompleted: { observer.onNext("\(number)|") })
                    _ = subscriptions.insert(inner)
                },
                onError: { observer.onError($0) },
                onCompleted: { observer.onCompleted() })
            _ = subscriptions.insert(outer)
            return subscriptions
        }
    }
}
