import RxSwift
import RxTest
import XCTest

final class HooksTests: RxLeakCheckingTestCase {
    func testReplacingAHookReleasesTheOldOneOutsideTheLock() {
        let saved = Hooks.defaultErrorHandler
        let probe = LockProbe { _ = Hooks.defaultErrorHandler }
        var tracked: LockProbe.Tracked? = probe.make()
        Hooks.defaultErrorHandler = { [tracked] _, _ in withExtendedLifetime(tracked) {} }
        tracked = nil
        Hooks.defaultErrorHandler = saved
        XCTAssertEqual(probe.releases, 1)
        XCTAssertEqual(probe.releasesUnderLock, 0)
    }
}
