import RxCocoa
import RxSwift
import TerminalUI

/// The map of the weather screen: a ``MapView`` that also takes `q` and Esc to quit. The search field
/// needs every letter, the map uses none, so it is the one view where a letter can mean "quit".
public final class WeatherMapView: MapView {
    fileprivate let quitRequests = PublishRelay<Void>()

    public override func handle(_ key: Key) -> Bool {
        if key == .character("q") || key == .escape {
            quitRequests.accept(())
            return true
        }
        return super.handle(key)
    }
}

extension Reactive where Base: WeatherMapView {
    /// `q` or Esc pressed while the map has the focus.
    public var quit: ControlEvent<Void> {
        ControlEvent(events: base.quitRequests.asObservable())
    }
}
