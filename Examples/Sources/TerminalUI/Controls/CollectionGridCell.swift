/// A cell of a ``CollectionGridView`` (`UICollectionViewCell`): an object the grid keeps and reuses,
/// since a cell may hold what is costly to make again (a download, an animation). Its views are on
/// the screen already; the grid only tells it where it shows and when it stops showing.
@MainActor
public protocol CollectionGridCell: AnyObject {
    /// Moves the cell's views into `slot`, the border included: the grid draws its highlight there.
    func place(in slot: Rect)
    /// The cell scrolled off or its item went: it stops what it was doing and hides, before the
    /// grid hands it out again (UIKit's `prepareForReuse()`).
    func prepareForReuse()
}
