/// How rows or items appear, change and go (UIKit's `UITableView.RowAnimation`, as a plain value a view
/// layer of any kind can interpret).
public enum RowAnimation: Sendable, Hashable {
    case fade, right, left, top, bottom
    /// No animation: the change is shown at once.
    case none
    case middle
    /// The view's own choice.
    case automatic
}

/// The animations an animated data source asks for when it inserts, reloads and deletes.
public struct AnimationConfiguration: Sendable, Hashable {
    public let insertAnimation: RowAnimation
    public let reloadAnimation: RowAnimation
    public let deleteAnimation: RowAnimation

    public init(
        insertAnimation: RowAnimation = .automatic, reloadAnimation: RowAnimation = .automatic,
        deleteAnimation: RowAnimation = .automatic
    ) {
        self.insertAnimation = insertAnimation
        self.reloadAnimation = reloadAnimation
        self.deleteAnimation = deleteAnimation
    }

    /// Whether anything is animated: `false` when inserts, reloads and deletes are all `.none`, and then
    /// an animated data source shows its changes without animation, moves included (RxDataSources'
    /// issue 90: switched-off animations still ran there).
    public var animatesChanges: Bool {
        insertAnimation != .none || reloadAnimation != .none || deleteAnimation != .none
    }
}
