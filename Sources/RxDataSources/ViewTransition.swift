/// How an animated data source shows a change of its sections (``RxTableViewSectionedAnimatedDataSource``'s
/// `decideViewTransition`).
public enum ViewTransition: Sendable {
    /// Applies the changesets as batch updates.
    case animated
    /// Reloads the whole view.
    case reload
}
