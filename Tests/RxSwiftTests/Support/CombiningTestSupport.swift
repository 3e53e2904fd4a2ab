import RxSwift

/// A source that delivers `elements` and completes synchronously inside `subscribe` (unlike
/// `Observable.of`, which delivers through the current-thread trampoline, after `subscribe` returned
/// when a trampoline is already running).
func synchronousSource<Element>(_ elements: [Element]) -> Observable<Element> {
    Observable.create { observer in
        for element in elements { observer.onNext(element) }
        observer.onCompleted()
        return Disposables.create()
    }
}
