import RxSwift

/// The window the views live in (`UIWindow`): it owns the focus, routes keys, and draws the views into
/// a cell grid.
///
/// Tab and Shift-Tab move the focus through the views that can take it, in the order they were added;
/// every other key goes to the focused view. Kept apart from ``Terminal`` so tests drive a screen with
/// keys in virtual time and read its grid, with no terminal at all; ``run(on:)`` connects the two.
@MainActor
public final class Screen {
    /// The size views are drawn into.
    public private(set) var size: Size
    /// The views, drawn in this order (later ones on top).
    public private(set) var views: [View] = []
    /// The view keys go to.
    public private(set) var focusedView: View?
    /// Lays the views out for a size (`UIView.layoutSubviews`): called at once when set and again on
    /// every resize, so frames computed from the size (see ``Layout``) follow the terminal. The
    /// screen keeps the closure: capture the views, not the screen.
    public var layout: ((Size) -> Void)? {
        didSet { layout?(size) }
    }
    private var onDisplayNeeded: (() -> Void)?

    /// Creates an empty screen of `size`.
    public init(size: Size) {
        self.size = size
    }

    /// Adds `view` on top; the first view that can take the focus gets it.
    public func addSubview(_ view: View) {
        views.append(view)
        view.displayNeeded = { [weak self] in self?.onDisplayNeeded?() }
        if focusedView == nil && view.canBecomeFocused { focus(view) }
        onDisplayNeeded?()
    }

    /// Gives `view` the focus (or takes it from everyone with `nil`).
    public func focus(_ view: View?) {
        guard view !== focusedView else { return }
        focusedView?.isFocused = false
        focusedView = view
        view?.isFocused = true
    }

    /// Handles one key: Tab / Shift-Tab move the focus when the focused view does not use them.
    public func handle(_ key: Key) {
        if let focusedView, !focusedView.isHidden, focusedView.handle(key) { return }
        switch key {
        case .tab: moveFocus(by: 1)
        case .backTab: moveFocus(by: -1)
        default: break
        }
    }

    private func moveFocus(by step: Int) {
        let candidates = views.filter(\.canBecomeFocused)
        guard !candidates.isEmpty else { return focus(nil) }
        guard let current = focusedView, let index = candidates.firstIndex(where: { $0 === current }) else {
            return focus(candidates[step > 0 ? 0 : candidates.count - 1])
        }
        focus(candidates[(index + step + candidates.count) % candidates.count])
    }

    /// Changes the size and lays the views out again with ``layout`` (without one, views keep their
    /// frames). The changed frames ask for one frame to be drawn, as any change does.
    public func resize(to size: Size) {
        self.size = size
        layout?(size)
        onDisplayNeeded?()
    }

    /// The frame to show now: every visible view drawn in order, and the focused view's cursor.
    public func render() -> (grid: CellGrid, cursor: Point?) {
        var grid = CellGrid(size: size)
        for view in views where !view.isHidden {
            view.draw(into: &grid)
        }
        let cursor = focusedView.flatMap { $0.isHidden ? nil : $0.cursorPosition }
        return (grid, cursor.flatMap { grid.bounds.contains($0) ? $0 : nil })
    }

    /// The screen as text (``CellGrid/text``), for snapshot tests.
    public var text: String { render().grid.text }

    /// Runs the screen on `terminal`: keys go to ``handle(_:)``, resizes to ``resize(to:)``, and a new
    /// frame is drawn on the main queue after any change (several changes in one turn of the main
    /// queue make one frame). The returned subscription keeps the screen (and its views) alive until
    /// it is disposed, as an application keeps its window, so a program need only keep the
    /// subscription. A frame that cannot be written is dropped; the next change draws again.
    public func run(on terminal: Terminal) -> Disposable {
        var scheduled = false
        let draw = { [weak self, weak terminal] in
            scheduled = false
            guard let self, let terminal else { return }
            let frame = self.render()
            try? terminal.draw(frame.grid, cursor: frame.cursor)
        }
        onDisplayNeeded = {
            guard !scheduled else { return }
            scheduled = true
            // Always asynchronous: the change that asked for the frame may be one of several.
            _ = MainScheduler.asyncInstance.schedule(()) { _ in
                draw()
                return Disposables.create()
            }
        }
        let sizes = terminal.sizes.subscribe(onNext: { [weak self] in self?.resize(to: $0) })
        let keys = terminal.keys.subscribe(onNext: { [weak self] in self?.handle($0) })
        onDisplayNeeded?()
        return Disposables.create { [self] in
            sizes.dispose()
            keys.dispose()
            onDisplayNeeded = nil
        }
    }
}
