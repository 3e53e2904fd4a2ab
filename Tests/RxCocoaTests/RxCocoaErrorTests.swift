import Foundation
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

/// A list data source, as a terminal UI kit would write one.
private struct SectionedListDataSource: SectionedViewDataSourceType {
    var sections: [[String]]

    func model(at indexPath: IndexPath) throws -> Any {
        // Off Darwin `IndexPath` has no `section`/`item`: they are its first and second index.
        guard indexPath.count == 2, indexPath[0] < sections.count, indexPath[1] < sections[indexPath[0]].count else {
            throw RxCocoaError.itemsNotYetBound(object: self)
        }
        return sections[indexPath[0]][indexPath[1]]
    }
}

final class SectionedViewDataSourceTypeTests: XCTestCase {
    func testModelAtIndexPath() throws {
        let dataSource = SectionedListDataSource(sections: [["a", "b"], ["c"]])
        XCTAssertEqual(try dataSource.model(at: IndexPath(indexes: [1, 0])) as? String, "c")
        XCTAssertThrowsError(try dataSource.model(at: IndexPath(indexes: [0, 5])))
    }
}
