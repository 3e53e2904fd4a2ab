import RxCocoa
import RxInspect
import RxSwift

extension ControlProperty {
    /// Tags the property's values for the attached `Inspector`, as RxInspect's
    /// `ObservableType.inspect(_:)` does, and stays a `ControlProperty`: `rx.text.inspect("city").orEmpty`
    /// compiles, and values bound to the result still go to the property.
    ///
    /// RxJS: rxjs-spy's `tag(…)`. RxSwift: none.
    public func inspect(_ tag: String) -> ControlProperty<Element> {
        ControlProperty(values: asObservable().inspect(tag), valueSink: self)
    }
}

extension ControlEvent {
    /// Tags the event's occurrences for the attached `Inspector` and stays a `ControlEvent`.
    ///
    /// RxJS: rxjs-spy's `tag(…)`. RxSwift: none.
    public func inspect(_ tag: String) -> ControlEvent<Element> {
        ControlEvent(events: asObservable().inspect(tag))
    }
}
