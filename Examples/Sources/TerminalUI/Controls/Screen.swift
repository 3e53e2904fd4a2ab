import RxSwift

/// The window the views live in (`UIWindow`): it owns the focus, routes keys and mouse events, and
/// draws the views into a cell grid.
///
/// Tab and Shift-Tab move the focus through the views that can take it, in the order they were added;
/// every other key goes to the focused view first, and what it leaves is the screen's: the keys every
/// program of the kit shares (see ``globalKeyHelp``):
/// - Ctrl-C quits (the ``Terminal`` ends the program on it before the screen sees it);
/// - `q` and Esc quit when the focused view does not take text (``View/acceptsTextInput``);
/// - `?` (outside a text field) and F1 (anywhere) show the help overlay, which lists these keys and
///   those of every visible view (``View/keyHelp``, plus ``additionalKeyHelp``); any key closes it.
///
/// A mouse press focuses the view under the pointer and goes to it, as does the wheel. Under
/// ``minimumSize`` the screen shows only "terminal too small (needs W×H)" and ignores everything but
/// quitting, and draws normally again once resized back.
///
/// Kept apart from ``Terminal`` so tests drive a screen with keys in virtual time and read its grid,
/// with no terminal at all; ``run(on:)`` connects the two.
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
    /// The smallest size the screen's layout works in; below it only a message asking for a larger
    /// terminal is drawn.
    public var minimumSize: Size {
        didSet { onDisplayNeeded?() }
    }
    /// Keys the program handles itself (e.g. in a view controller), listed in the help overlay after
    /// the views' own under the heading "This screen".
    public var additionalKeyHelp: [(key: String, action: String)] = [] {
        didSet { onDisplayNeeded?() }
    }
    /// Whether the help overlay is showing.
    public private(set) var isShowingHelp = false {
        didSet { if isShowingHelp != oldValue { onDisplayNeeded?() } }
    }
    /// `()` each time the user asks to quit with a key (`q`, Esc, or Ctrl-C reaching the screen);
    /// ``run(on:)`` ends the program on it, after restoring the terminal.
    public var quitRequests: Observable<Void> { quits.asObservable() }

    /// The keys nothing used: neither the focused view nor the screen's own keys (Tab, q, Esc, `?`,
    /// F1). A view controller handles keys of its own here (a retry key, say) and lists them in
    /// ``additionalKeyHelp``.
    public var unhandledKeys: Observable<Key> { unhandled.asObservable() }

    private let quits = PublishSubject<Void>()
    private let unhandled = PublishSubject<Key>()
    private var onDisplayNeeded: (() -> Void)?

    /// The keys every screen answers, listed first in the help overlay.
    public static let globalKeyHelp: [(key: String, action: String)] = [
        ("Tab/Shift-Tab", "next/previous control"),
        ("q/Esc", "quit (not in a text field)"),
        ("Ctrl-C", "quit"),
        ("?/F1", "help (F1 in a text field)"),
        ("click/wheel", "focus, press; scroll"),
    ]

    /// Creates an empty screen of `size` that asks for at least `minimumSize`.
    public init(size: Size, minimumSize: Size = Size(columns: 60, rows: 20)) {
        self.size = size
        self.minimumSize = minimumSize
    }

    deinit {
        quits.onCompleted()
        unhandled.onCompleted()
    }

    /// Whether the screen is smaller than ``minimumSize``.
    public var isTooSmall: Bool {
        size.columns < minimumSize.columns || size.rows < minimumSize.rows
    }

    /// Adds `view` on top; the first view that can take the focus gets it.
    public func addSubview(_ view: View) {
        views.append(view)
        view.screen = self
        view.displayNeeded = { [weak self] in self?.onDisplayNeeded?() }
        if focusedView == nil && view.canBecomeFocused { focus(view) }
        view.screenFocusDidChange(focusTakesText: focusedView?.acceptsTextInput ?? false)
        onDisplayNeeded?()
    }

    /// Gives `view` the focus (or takes it from everyone with `nil`).
    public func focus(_ view: View?) {
        guard view !== focusedView else { return }
        focusedView?.isFocused = false
        focusedView = view
        view?.isFocused = true
        let takesText = view?.acceptsTextInput ?? false
        views.forEach { $0.screenFocusDidChange(focusTakesText: takesText) }
    }

    /// Shows or hides the help overlay (what `?` and F1 do).
    public func showHelp(_ show: Bool = true) {
        isShowingHelp = show
    }

    /// Handles one key or mouse event, as described on the type.
    public func handle(_ key: Key) {
        if case .mouse(let event) = key { return handle(mouse: event) }
        views.forEach { $0.userDidAct() }
        if isShowingHelp {
            isShowingHelp = false
            if key == .control("c") { quits.onNext(()) }
            return
        }
        if isTooSmall {
            // Nothing is typed while too small, so q and Esc quit whatever has the focus, as the message says.
            if key == .control("c") || key == .character("q") || key == .escape { quits.onNext(()) }
            return
        }
        if key == .function(1) { return showHelp() }
        if let focusedView, !focusedView.isHidden, focusedView.handle(key) { return }
        let typing = focusedView.map { !$0.isHidden && $0.acceptsTextInput } ?? false
        switch key {
        case .tab: moveFocus(by: 1)
        case .backTab: moveFocus(by: -1)
        case .control("c"): quits.onNext(())
        case .character("q") where !typing, .escape where !typing: quits.onNext(())
        case .character("?") where !typing: showHelp()
        default: unhandled.onNext(key)
        }
    }

    /// A press focuses the view under the pointer (the topmost visible one) when it can take the
    /// focus; presses and the wheel then go to that view. Releases go to it too, without focusing.
    private func handle(mouse event: MouseEvent) {
        let acts = event.action != .release
        if acts { views.forEach { $0.userDidAct() } }
        if isShowingHelp {
            if acts { isShowingHelp = false }
            return
        }
        guard !isTooSmall else { return }
        guard let view = views.last(where: { !$0.isHidden && $0.frame.contains(event.location) }) else { return }
        if event.action == .press && view.canBecomeFocused { focus(view) }
        _ = view.handle(mouse: event)
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

    /// The help overlay's sections: the kit's keys, each visible view's (a kind of view listed once),
    /// then the program's own.
    public var keyHelpSections: [(title: String, entries: [(key: String, action: String)])] {
        var sections: [(title: String, entries: [(key: String, action: String)])] = [("Keys", Self.globalKeyHelp)]
        for view in views where !view.isHidden && !view.keyHelp.isEmpty {
            let title = view.keyHelpTitle
            guard !sections.contains(where: { $0.title == title }) else { continue }
            sections.append((title, view.keyHelp))
        }
        if !additionalKeyHelp.isEmpty { sections.append(("This screen", additionalKeyHelp)) }
        return sections
    }

    /// The frame to show now: every visible view drawn in order, and the focused view's cursor; the
    /// help overlay over them when it shows; only the "too small" message under ``minimumSize``.
    public func render() -> (grid: CellGrid, cursor: Point?) {
        var grid = CellGrid(size: size)
        if isTooSmall {
            drawTooSmallMessage(into: &grid, minimumSize: minimumSize)
            return (grid, nil)
        }
        for view in views where !view.isHidden {
            view.draw(into: &grid)
        }
        if isShowingHelp {
            drawHelpOverlay(into: &grid, sections: keyHelpSections)
            return (grid, nil)
        }
        let cursor = focusedView.flatMap { $0.isHidden ? nil : $0.cursorPosition }
        return (grid, cursor.flatMap { grid.bounds.contains($0) ? $0 : nil })
    }

    /// The screen as text (``CellGrid/text``), for snapshot tests.
    public var text: String { render().grid.text }

    /// Runs the screen on `terminal`: keys go to ``handle(_:)``, resizes to ``resize(to:)``, a quit
    /// request (``quitRequests``) restores the terminal and ends the program with status 0
    /// (``Terminal/quit()``), and a new frame is drawn on the main queue after any change (several
    /// changes in one turn of the main queue make one frame). The returned subscription keeps the
    /// screen (and its views) alive until it is disposed, as an application keeps its window, so a
    /// program need only keep the subscription. A frame that cannot be written is dropped; the next
    /// change draws again.
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
        let quit = quits.subscribe(onNext: { [weak terminal] in terminal?.quit() })
        onDisplayNeeded?()
        return Disposables.create { [self] in
            sizes.dispose()
            keys.dispose()
            quit.dispose()
            onDisplayNeeded = nil
        }
    }
}
