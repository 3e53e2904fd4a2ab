import RxSwift
import RxTest
import XCTest

final class TailRecursionTests: RxLeakCheckingTestCase {
    #if DEBUG
        func testMaxTailRecursiveSinkStackSizeCanBeResetByTests() {
            let saved = maxTailRecursiveSinkStackSize
            defer { maxTailRecursiveSinkStackSize = saved }
            maxTailRecursiveSinkStackSize = 3
            XCTAssertEqual(maxTailRecursiveSinkStackSize, 3)
            maxTailRecursiveSinkStackSize = 0
            XCTAssertEqual(maxTailRecursiveSinkStackSize, 0)
        }
    #endif
}
