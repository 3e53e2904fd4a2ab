import RxCocoa
import RxSwift

/// What `rx.items(dataSource:)` does for tables and collections alike: sets the view's data source,
/// hands the data source each array on the main thread, and lets go of it when disposed.
@MainActor
func bindSections<View: AnimatableSectionedView, DataSource: AnyObject, Source: ObservableType>(
    _ source: Source, to view: View, through dataSource: DataSource,
    attach: @escaping (View, DataSource?) -> Void, isAttached: @escaping (View, DataSource) -> Bool,
    deliver: @escaping (View, Source.Element) -> Void
) -> Disposable {
    attach(view, dataSource)
    let subscription = source.subscribe(Binder(view) { view, sections in deliver(view, sections) })
    weak let weakView = view
    return Disposables.create {
        subscription.dispose()
        // A scheduler of its own runs at once on the main thread, whatever the shared one has queued.
        _ = MainScheduler().schedule(()) { _ in
            if let view = weakView, isAttached(view, dataSource) { attach(view, nil) }
            return Disposables.create()
        }
    }
}
