import Foundation
import RxCocoa
import RxSwift

// Main-actor controls as UIKit's are, with their `.rx` extensions written the Swift 6 way (the article
// "Swift 6 and actors"): the isolation tests drive them.

/// A label (`UILabel`): main-actor state.
@MainActor
final class IsolatedLabel {
    var text: String?
    /// Every text it was given, in order.
    private(set) var history: [String?] = []

    init() {}

    func show(_ text: String?) {
        self.text = text
        history.append(text)
    }
}

/// A text field (`UITextField`): its text as a control property, its Return key as a control event.
@MainActor
final class IsolatedTextField {
    fileprivate let textRelay = BehaviorRelay<String?>(value: "")
    fileprivate let returnKey = PublishRelay<Void>()

    init() {}

    var text: String? {
        get { textRelay.value }
        set { textRelay.accept(newValue) }
    }

    /// The user typing `text` and pressing Return.
    func type(_ text: String) {
        self.text = text
        returnKey.accept(())
    }
}

@MainActor
extension Reactive where Base: IsolatedLabel {
    var text: Binder<String?> { Binder(base) { $0.show($1) } }
}

@MainActor
extension Reactive where Base: IsolatedTextField {
    var text: ControlProperty<String?> {
        let field = base
        return ControlProperty(
            values: field.textRelay.asObservable(), valueSink: Binder(field) { $0.text = $1 })
    }

    var controlEventReturn: ControlEvent<Void> { ControlEvent(events: base.returnKey.asObservable()) }
}

/// The weather service of the RxSwift book's Wundercast, nonisolated as a service should be:
/// answers arrive on a background queue, as URLSession's do.
final class IsolatedWeatherService: Sendable {
    func currentWeather(city: String) -> Observable<String> {
        Observable.just("\(city): 22°C").delay(
            .milliseconds(5), scheduler: ConcurrentDispatchQueueScheduler(qos: .default))
    }
}

extension IsolatedLabel: ReactiveCompatible {}
extension IsolatedTextField: ReactiveCompatible {}
