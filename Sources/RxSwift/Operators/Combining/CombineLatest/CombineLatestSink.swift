/// The rules of `combineLatest`, shared by the arity and collection forms; subclasses say how to
/// build a result from their sources' latest values.
///
/// RxSwift's rules, kept: a result is delivered on every element once every source has delivered
/// one; the result completes when every source has completed, or when an element arrives while all
/// the sources without a value have completed (no result can come any more); the first error ends
/// everything. A source's subscription ends when that source ends.
class CombineLatestSink<Output>: CombiningSink<Output>, @unchecked Sendable {
    @exclusivity(unchecked) private var hasValue: CombiningFlags
    @exclusivity(unchecked) private var isDone: CombiningFlags

    init(arity: Int, downstream: Sink<Output>) {
        hasValue = CombiningFlags(arity: arity)
        isDone = CombiningFlags(arity: arity)
        super.init(downstream: downstream)
    }

    /// The result for the sources' latest values; called only when all have one.
    func combine() throws -> Output {
        rxAbstractMethod()
    }

    /// Source `index` delivered an element (already stored). Runs as the token holder.
    final func sourceReceived(_ index: Int) {
        guard isForwarding else { return }
        _ = hasValue.set(index)
        if hasValue.allSet {
            let result: Output
            do {
                result = try combine()
            } catch {
                forwardTermination(.error(error))
                return
            }
            forward(result)
        } else if isDone.allSet(except: index) {
            forwardTermination(.completed)
        }
    }

    /// Source `index` ended. Runs as the token holder.
    final func sourceEnded(_ index: Int, _ termination: Termination) {
        guard isForwarding else { return }
        if case .error = termination {
            forwardTermination(termination)
            return
        }
        _ = isDone.set(index)
        if isDone.allSet { forwardTermination(.completed) }
    }
}

/// A source of `combineLatest`: remembers its latest element.
final class CombineLatestSource<Element, Output>: CombiningSource<Element, Output>, @unchecked Sendable {
    /// Owned by the parent's token holder.
    @exclusivity(unchecked) private(set) var latest: LatestValue<Element>?

    private var combineParent: CombineLatestSink<Output> {
        unsafeDowncast(parent, to: CombineLatestSink<Output>.self)
    }

    override func receive(_ element: Element) {
        guard parent.isForwarding else { return }
        if let latest {
            latest.value = element
        } else {
            latest = LatestValue(element)
        }
        combineParent.sourceReceived(index)
    }

    override func received(_ termination: Termination) {
        combineParent.sourceEnded(index, termination)
    }

    /// The latest element; only when the parent knows there is one.
    var value: Element {
        latest.unsafelyUnwrapped.value
    }
}
