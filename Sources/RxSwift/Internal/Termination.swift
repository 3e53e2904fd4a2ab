/// How a sequence ended. Not generic over the element, so terminating a sink never needs the
/// generic metadata of `Event<Element>` (the Performance article).
@usableFromInline
enum Termination {
    case completed
    case error(any Swift.Error)

    func event<Element>(of _: Element.Type = Element.self) -> Event<Element> {
        switch self {
        case .completed: return .completed
        case .error(let error): return .error(error)
        }
    }
}
