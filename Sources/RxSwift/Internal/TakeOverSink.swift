/// Receives the sequence that takes over from an operator's source (`catch`'s handler, `timeout`'s
/// fallback, `ifEmpty(switchTo:)`) and delivers it through the operator's sink; when it lets go of this
/// sink, nothing more can arrive, and the chain below is let go too.
final class TakeOverSink<Element>: OperatorSink<Element, Element>, @unchecked Sendable {
    private let parent: OperatorSink<Element, Element>

    init(parent: OperatorSink<Element, Element>) {
        self.parent = parent
        super.init(downstream: parent.downstream)
    }

    override func next(_ element: Element) {
        parent.forward(element)
    }

    override func terminate(_ termination: Termination) {
        parent.forwardTermination(termination)
    }

    override func forwardSourceGone() {
        parent.letGoOfDownstream()
    }
}
