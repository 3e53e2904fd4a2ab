import RxCocoa
import RxSwift

/// The base of everything on screen, as `UIView` is: a frame, visibility, focus, drawing and keys.
///
/// Views are `@MainActor`, as UIKit's are (bindings deliver there through `Binder` and `Driver`), and
/// so are their `.rx` extensions. A view that changes how it looks calls ``setNeedsDisplay()``,
/// which tells the ``Screen`` holding it to draw a new frame.
@MainActor
open class View: ReactiveCompatible {
    /// Where the view draws, in screen cells; nothing is drawn outside it.
    public var frame: Rect {
        didSet { setNeedsDisplay() }
    }

    /// Whether the view is hidden: not drawn and not focusable (`UIView.isHidden`).
    public var isHidden = false {
        didSet {
            guard isHidden != oldValue else { return }
            setNeedsDisplay()
            isHiddenDidChange()
        }
    }

    /// Called after ``isHidden`` changes: a view that works while shown (a refresh timer) starts or
    /// stops it here.
    open func isHiddenDidChange() {}

    /// Whether the view has the keyboard focus (set by the ``Screen``).
    public internal(set) var isFocused = false {
        didSet {
            guard isFocused != oldValue else { return }
            focusDidChange()
            setNeedsDisplay()
        }
    }

    /// Called when the view needs a new frame drawn; set by the ``Screen`` the view is added to.
    var displayNeeded: (() -> Void)?

    /// The screen the view was added to (`UIView.window`), so a view can tell whether it is on it.
    weak var screen: Screen?

    let deallocatedSubject = PublishSubject<Void>()

    /// Creates a view occupying `frame`.
    public init(frame: Rect = Rect(column: 0, row: 0, columns: 0, rows: 0)) {
        self.frame = frame
    }

    deinit {
        deallocatedSubject.onNext(())
        deallocatedSubject.onCompleted()
    }

    /// Whether Tab can move the focus here; controls that take keys answer true.
    open var canBecomeFocused: Bool { false }

    /// Draws the view into `grid`, inside ``View/frame``. Subclasses override; the base draws nothing.
    open func draw(into grid: inout CellGrid) {}

    /// Where the terminal cursor should stand while this view has the focus (a text field's insertion
    /// point), or `nil` for a hidden cursor.
    open var cursorPosition: Point? { nil }

    /// Handles a key sent to the focused view; returns whether the key was used (an unused key is left
    /// to the screen, e.g. Tab).
    open func handle(_ key: Key) -> Bool { false }

    /// Called after the view gains or loses the focus; a text field reports its editing events here.
    open func focusDidChange() {}

    /// Whether the view takes typed text, so printable keys are its own: while such a view has the
    /// focus, `q` and `?` are typed rather than quitting or showing the help, and Esc does not quit.
    open var acceptsTextInput: Bool { false }

    /// The keys this view answers and what they do, for the help overlay (`?`, F1) the ``Screen``
    /// shows: e.g. `[("↑/↓", "move"), ("Enter", "select")]`. A subclass that adds keys adds its
    /// entries to `super.keyHelp`.
    open var keyHelp: [(key: String, action: String)] { [] }

    /// The heading the help overlay gives this view's ``keyHelp`` (e.g. "List").
    open var keyHelpTitle: String { "" }

    /// Handles a mouse event on the view (the ``Screen`` sends it the events whose pointer is inside
    /// ``frame``, after giving it the focus on a press when it can take it); returns whether it was used.
    open func handle(mouse event: MouseEvent) -> Bool { false }

    /// Called by the ``Screen`` before it handles a key or a click, whatever view it goes to: the user
    /// did something (a status line dismisses the error it was keeping on screen).
    func userDidAct() {}

    /// Called by the ``Screen`` when its focus moves (and when the view is added), with whether the
    /// focused view takes text: the keys that quit and show the help depend on it.
    func screenFocusDidChange(focusTakesText: Bool) {}

    /// Asks for a new frame to be drawn.
    public func setNeedsDisplay() {
        displayNeeded?()
    }
}

@MainActor
extension Reactive where Base: View {
    /// Binds to the view's visibility, as RxCocoa's `UIView.rx.isHidden` does.
    public var isHidden: Binder<Bool> {
        Binder(base) { view, hidden in view.isHidden = hidden }
    }

    /// Emits once and completes when the view is deallocated (RxCocoa's `rx.deallocated`, which the
    /// Objective-C runtime provides there and the view's `deinit` provides here).
    public var deallocated: Observable<Void> {
        base.deallocatedSubject.asObservable()
    }
}
