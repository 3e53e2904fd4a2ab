@_spi(RxInternal) import RxSwift
import RxTest
import XCTest

/// A base for tests of `Observable.create` followed by `map`/`filter`: release builds hand the
/// closure the operator's sink directly, debug builds put `create`'s grammar-checking sink in between
/// (see `CreateObservable.subscribe(sink:)`). ``bothWays(_:)`` runs a scenario through both, and
/// grammar violations, which these scenarios commit on purpose, are not printed.
class CreateBothWaysTestCase: RxLeakCheckingTestCase {
    private var savedHandler: (@Sendable (String) -> Void)?

    override func setUp() {
        super.setUp()
        savedHandler = Hooks.grammarViolationHandler
        Hooks.grammarViolationHandler = { _ in }
    }

    override func tearDown() {
        CreateGrammarChecks.isEnabled = true
        if let savedHandler { Hooks.grammarViolationHandler = savedHandler }
        super.tearDown()
    }

    /// Runs `body` through `create`'s sink and then directly into the operator's sink.
    func bothWays(_ body: (_ direct: Bool) -> Void) {
        for direct in [false, true] {
            CreateGrammarChecks.isEnabled = !direct
            body(direct)
        }
        CreateGrammarChecks.isEnabled = true
    }
}
