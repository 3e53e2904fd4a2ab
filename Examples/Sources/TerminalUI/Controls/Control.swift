import RxCocoa
import RxSwift

/// A view that reports user actions as events, as `UIControl` does; the `.rx` control events and
/// control properties are built on ``sendActions(for:)``.
@MainActor
open class Control: View {
    /// Kinds of control events, named as `UIControl.Event`'s so the RxSwift book's code reads the
    /// same.
    public struct Event: OptionSet, Hashable, Sendable {
        /// The raw bits.
        public let rawValue: UInt32

        /// Creates events from raw bits.
        public init(rawValue: UInt32) { self.rawValue = rawValue }

        /// A button was pressed (Enter or Space while focused); what `rx.tap` reports.
        public static let touchUpInside = Event(rawValue: 1 << 0)
        /// The control's value changed by user action.
        public static let valueChanged = Event(rawValue: 1 << 1)
        /// The primary action: a button press, Enter in a text field.
        public static let primaryActionTriggered = Event(rawValue: 1 << 2)
        /// A text field received the focus.
        public static let editingDidBegin = Event(rawValue: 1 << 3)
        /// The user changed a text field's text.
        public static let editingChanged = Event(rawValue: 1 << 4)
        /// A text field lost the focus.
        public static let editingDidEnd = Event(rawValue: 1 << 5)
        /// Enter was pressed in a text field (the RxSwift book's
        /// `rx.controlEvent(.editingDidEndOnExit)`).
        public static let editingDidEndOnExit = Event(rawValue: 1 << 6)
        /// Every editing event.
        public static let allEditingEvents: Event = [
            .editingDidBegin, .editingChanged, .editingDidEnd, .editingDidEndOnExit,
        ]
    }

    /// Whether the control takes focus and input (`UIControl.isEnabled`).
    public var isEnabled = true {
        didSet { if isEnabled != oldValue { setNeedsDisplay() } }
    }

    private let actions = PublishSubject<Event>()

    /// A control can take the focus unless it is disabled or hidden.
    open override var canBecomeFocused: Bool { isEnabled && !isHidden }

    /// Reports `events` to every `rx.controlEvent` subscriber interested in one of them.
    public func sendActions(for events: Event) {
        actions.onNext(events)
    }

    deinit {
        actions.onCompleted()
    }

    var actionEvents: Observable<Event> { actions.asObservable() }
}

@MainActor
extension Reactive where Base: Control {
    /// The control's `events`, as RxCocoa's `UIControl.rx.controlEvent(_:)`: a `()` each time one of
    /// them is sent; completes when the control is deallocated.
    public func controlEvent(_ events: Control.Event) -> ControlEvent<Void> {
        ControlEvent(events: base.actionEvents.filter { !$0.isDisjoint(with: events) }.map { _ in () })
    }

    /// A property of the control, as RxCocoa's `UIControl.rx.controlProperty(editingEvents:getter:setter:)`:
    /// the current value on subscription and after each of `editingEvents`; values bound to it are
    /// set with `setter` on the main scheduler (and, as in UIKit, send no events back).
    public func controlProperty<T>(
        editingEvents: Control.Event, getter: @escaping (Base) -> T, setter: @escaping (Base, T) -> Void
    ) -> ControlProperty<T> {
        // Neither the sequence nor the property may keep the control alive: it is held weakly, and the
        // events come from its subject, which completes when the control goes.
        weak let weakControl = base
        let events = controlEvent(editingEvents).asObservable()
        let values = Observable<T>.deferred {
            guard let control = weakControl else { return .empty() }
            let current = getter(control)
            return events.compactMap { [weak control] in control.map(getter) }.startWith(current)
        }
        return ControlProperty(values: values, valueSink: Binder(base, binding: setter))
    }
}
