import RxSwift

/// A type that is, or can be turned into, a ``ControlProperty``: both an observable of the
/// property's values and an observer that sets it.
///
/// RxSwift: `ControlPropertyType` (RxCocoa).
public protocol ControlPropertyType: ObservableType, ObserverType {
    /// The value as a control property.
    func asControlProperty() -> ControlProperty<Element>
}

/// A property of a control (a text field's text, a switch's state), both readable and bindable:
/// subscribing delivers the current value, then each change; binding a sequence to it sets the
/// value. It never errors, is subscribed on the main scheduler, and an error bound to it is a
/// programmer error (it asserts in debug builds and is printed in release builds) that never reaches
/// the setter.
///
/// Thread-safety: an immutable struct around an `Observable` and an observer.
///
/// RxSwift: `ControlProperty` (RxCocoa).
public struct ControlProperty<PropertyType>: ControlPropertyType, @unchecked Sendable {
    /// The element type.
    public typealias Element = PropertyType

    let values: Observable<PropertyType>
    let valueSink: AnyObserver<PropertyType>

    /// A control property that reads from `values` (which should deliver the current value on
    /// subscription, and must not error) and writes to `valueSink`. `values` is subscribed on
    /// `ConcurrentMainScheduler.instance` (at once when subscribed from the main thread).
    public init<Values: ObservableType, Sink: ObserverType>(values: Values, valueSink: Sink)
    where Element == Values.Element, Element == Sink.Element {
        self.values = values.subscribe(on: ConcurrentMainScheduler.instance)
        self.valueSink = valueSink.asObserver()
    }

    /// Subscribes `observer` to the property's values.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable
    where Observer.Element == Element {
        values.subscribe(observer)
    }

    /// The changes of the property: its values without the current one delivered on subscription.
    ///
    /// RxSwift: the same (RxCocoa), `values.skip(1)`.
    public var changed: ControlEvent<PropertyType> {
        ControlEvent(events: values.skip(1))
    }

    /// The values as an observable sequence.
    public func asObservable() -> Observable<Element> {
        values
    }

    /// Returns `self`.
    public func asControlProperty() -> ControlProperty<Element> {
        self
    }

    /// Sets the property to each element; completion is passed to the value sink, and an error is
    /// reported as a programmer error instead of reaching it.
    public func on(_ event: Event<Element>) {
        switch event {
        case .error(let error):
            controlPropertyBindingError(error)
        case .next, .completed:
            valueSink.on(event)
        }
    }
}

extension ControlPropertyType where Element == String? {
    /// The property with `nil` read as `""`: handy for text fields, whose text is optional.
    ///
    /// RxSwift: the same (RxCocoa).
    public var orEmpty: ControlProperty<String> {
        let original = asControlProperty()
        let values: Observable<String> = original.values.map { $0 ?? "" }
        let valueSink: AnyObserver<String> = original.valueSink.mapObserver { $0 }
        return ControlProperty<String>(values: values, valueSink: valueSink)
    }
}

/// Reports an error bound to a control property: controls cannot take errors, so the source was
/// expected never to fail.
func controlPropertyBindingError(_ error: Swift.Error, file: StaticString = #file, line: UInt = #line) {
    let message = "Binding error to a control property: \(error)"
    #if DEBUG
        assertionFailure(message, file: file, line: line)
    #else
        print("\(file):\(line): \(message)")
    #endif
}
