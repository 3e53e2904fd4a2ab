import RxInspect
import RxSwift
import TerminalUI

/// F2 in any program of the kit: the ``InspectorView`` over the whole screen, and F2 (or Esc) again back
/// to the program, its focus where it was.
@MainActor
public enum InspectorOverlay {
    /// Adds a hidden ``InspectorView`` of `inspector` on top of `screen`'s views and makes F2 show and
    /// hide it; attaches `inspector` at once (unless `attach` is false), so the lanes hold the
    /// program's history from its start when first opened. Call it after the program's views are added
    /// and its layout set.
    @discardableResult
    public static func install(
        on screen: Screen, inspector: Inspector = .shared, attach: Bool = true,
        makeView: (Inspector) -> InspectorView = { InspectorView(inspector: $0) }
    ) -> InspectorView {
        if attach { inspector.attach() }
        let view = makeView(inspector)
        view.frame = Rect(origin: Point(column: 0, row: 0), size: screen.size)
        screen.addSubview(view)
        // The program's own layout first, then the overlay covers whatever size the screen has.
        let programLayout = screen.layout
        screen.layout = { [weak view] size in
            programLayout?(size)
            view?.frame = Rect(origin: Point(column: 0, row: 0), size: size)
        }
        var focusBefore: View?
        let toggle = { [weak screen, weak view] in
            guard let screen, let view else { return }
            if view.isHidden {
                focusBefore = screen.focusedView
                view.isHidden = false
                screen.focus(view)
            } else {
                view.isHidden = true
                screen.focus(focusBefore)
                focusBefore = nil
            }
        }
        view.onClose = toggle
        screen.unhandledKeys
            .filter { $0 == .function(2) }
            .subscribe(onNext: { _ in toggle() })
            .disposed(by: view.disposeBag)
        screen.additionalKeyHelp.append(("F2", "show/hide the stream inspector"))
        return view
    }
}
