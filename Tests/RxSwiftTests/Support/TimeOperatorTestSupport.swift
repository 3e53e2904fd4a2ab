import Dispatch
@_spi(RxInternal) import RxSwift
import Synchronization
import XCTest

/// A source fed from a background thread: `feed` runs `body` with the subject on another thread.
enum BackgroundFeed {
    static func start(_ body: @escaping @Sendable () -> Void) -> DispatchSemaphore {
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            body()
            done.signal()
        }
        return done
    }
}

/// Asserts that `values` is `0, 1, 2, …` (all of `0..<count` when `count` is given), naming the first
/// difference rather than printing thousands of numbers.
func assertCountsUp(_ values: [Int], to count: Int? = nil, file: StaticString = #filePath, line: UInt = #line) {
    if let mismatch = values.indices.first(where: { values[$0] != $0 }) {
        XCTFail("at index \(mismatch): expected \(mismatch), got \(values[mismatch])", file: file, line: line)
    } else if let count, values.count != count {
        XCTFail("got \(values.count) values, expected \(count)", file: file, line: line)
    }
}
