import RxSwift
import RxTest
import XCTest

final class ErrorsTests: RxLeakCheckingTestCase {
    func testDebugDescriptions() {
        XCTAssertEqual(RxError.unknown.debugDescription, "Unknown error occurred.")
        XCTAssertEqual(RxError.overflow.debugDescription, "Arithmetic overflow occurred.")
        XCTAssertEqual(RxError.argumentOutOfRange.debugDescription, "Argument out of range.")
        XCTAssertEqual(RxError.noElements.debugDescription, "Sequence doesn't contain any elements.")
        XCTAssertEqual(RxError.moreThanOneElement.debugDescription, "Sequence contains more than one element.")
        XCTAssertEqual(RxError.timeout.debugDescription, "Sequence timeout.")
    }

    func testDisposedCarriesTheObject() {
        final class Subject: CustomStringConvertible {
            var description: String { "the-subject" }
        }
        let object = Subject()
        let error = RxError.disposed(object: object)
        XCTAssertEqual(error.debugDescription, "Object `the-subject` was already disposed.")
        guard case .disposed(let carried) = error else { return XCTFail("expected .disposed") }
        XCTAssertTrue(carried === object)
    }

    func testIsAnErrorUsersCanSwitchOver() {
        let error: Swift.Error = RxError.timeout
        switch error as? RxError {
        case .timeout?: break
        default: XCTFail("expected RxError.timeout, got \(error)")
        }
    }
}
