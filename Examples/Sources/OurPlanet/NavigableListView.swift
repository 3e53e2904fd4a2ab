import TerminalUI

/// A list that passes the keys it does not use to its screen's controller: the screen-wide keys
/// (`r` to retry) and going back (Backspace, Left), which a `ListView` leaves unused. (The kit's
/// `Screen` routes keys only to the focused view.)
@MainActor
public final class NavigableListView: ListView {
    /// Called with each key the list does not use; answers whether it was used.
    public var unusedKey: ((Key) -> Bool)?

    public override func handle(_ key: Key) -> Bool {
        if super.handle(key) { return true }
        return unusedKey?(key) ?? false
    }
}
