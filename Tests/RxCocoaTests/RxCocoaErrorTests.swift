import XCTest

@testable import RxCocoa

final class RxCocoaErrorTests: XCTestCase {
    func testCastOrThrow() throws {
        XCTAssertEqual(try castOrThrow(Int.self, 3 as Any), 3)
        XCTAssertThrowsError(try castOrThrow(Int.self, "three" as Any)) { error in
            guard case RxCocoaError.castingError(let object, let targetType) = error else {
                return XCTFail("unexpected \(error)")
            }
            XCTAssertEqual(object as? String, "three")
            XCTAssertTrue(targetType == Int.self)
        }
    }

    func testDebugDescriptionsNameWhatTheErrorIsAbout() {
        let errors: [RxCocoaError] = [
            .unknown, .invalidOperation(object: "op"), .itemsNotYetBound(object: "table"),
            .invalidPropertyName(object: "obj", propertyName: "prop"),
            .invalidObjectOnKeyPath(object: "obj", sourceObject: self, propertyName: "path"),
            .errorDuringSwizzling, .castingError(object: 1, targetType: String.self),
        ]
        let descriptions = errors.map(\.debugDescription)
        XCTAssertEqual(Set(descriptions).count, errors.count)
        XCTAssertTrue(descriptions[3].contains("prop"))
        XCTAssertTrue(descriptions[6].contains("String"))
    }
}
