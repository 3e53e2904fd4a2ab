import ChildProcessTesting
import Foundation
import RxSwift
import XCTest

/// Chains built by folding over data are as deep as the data is long: subscribing, delivering,
/// ending and releasing 100 000 chained operators must not overflow the main thread's stack, nor
/// 10 000 a thread with a 512 KiB stack. A failure is a crash, so each scenario
/// runs in a child process: this test bundle, asked to run one test, with `RX_DEEP_CHAIN_CHILD` set.
final class DeepChainTests: XCTestCase {
    private static let childVariable = "RX_DEEP_CHAIN_CHILD"

    // MARK: - In this process: start the children

    func testHundredThousandMapsOnTheMainThread() throws {
        try runInChild("childHundredThousandMapsOnTheMainThread")
    }

    func testHundredThousandFiltersAndPairsOnTheMainThread() throws {
        try runInChild("childHundredThousandFiltersAndPairsOnTheMainThread")
    }

    func testTenThousandMapsOnA512KiBThread() throws {
        try runInChild("childTenThousandMapsOnA512KiBThread")
    }

    func testTenThousandOperatorsBuiltAndReleasedUnsubscribedOnA512KiBThread() throws {
        try runInChild("childTenThousandOperatorsBuiltAndReleasedOnA512KiBThread")
    }

    // MARK: - In the child

    func testChildHundredThousandMapsOnTheMainThread() throws {
        try onlyInChild()
        XCTAssertTrue(Thread.isMainThread)
        XCTAssertEqual(Self.pump(maps: 100_000), [100_001, 100_002, 100_003])
    }

    func testChildHundredThousandFiltersAndPairsOnTheMainThread() throws {
        try onlyInChild()
        let source = Observable.of(1, 2, 3)
        let filters = (0..<100_000).reduce(source) { chain, _ in chain.filter { $0 != 2 } }
        let pairs = (0..<50_000).reduce(filters) { chain, _ in chain.map { $0 + 1 }.filter { $0 > 0 } }
        var received: [Int] = []
        var completed = false
        _ = pairs.subscribe(onNext: { received.append($0) }, onCompleted: { completed = true })
        XCTAssertEqual(received, [50_001, 50_003])
        XCTAssertTrue(completed)
    }

    func testChildTenThousandMapsOnA512KiBThread() throws {
        try onlyInChild()
        let result = Mutex512KiBResult()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            result.values = Self.pump(maps: 10_000)
            done.signal()
        }
        thread.stackSize = 512 * 1024
        thread.start()
        done.wait()
        XCTAssertEqual(result.values, [10_001, 10_002, 10_003])
    }

    /// Never subscribed, so only the release can recurse: the operators hand their sources to one loop.
    /// An operator in the middle, kept a while by another chain, is released after it, by that chain.
    func testChildTenThousandOperatorsBuiltAndReleasedOnA512KiBThread() throws {
        try onlyInChild()
        let released = Mutex512KiBResult()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            weak var bottom: Observable<Int>?
            weak var middle: Observable<Int>?
            var other: Observable<Int>?
            do {
                let first = Observable.just(1).map { $0 + 1 }
                bottom = first
                let below = (0..<5_000).reduce(first) { chain, _ in chain.map { $0 + 1 }.filter { $0 > 0 } }
                middle = below
                other = below.map { $0 }
                let chain = (0..<5_000).reduce(below) { chain, _ in chain.filter { $0 > 0 }.map { $0 + 1 } }
                _ = chain
            }
            released.values.append(middle == nil || other == nil ? 0 : 1)
            other = nil
            released.values.append(middle == nil && bottom == nil ? 0 : 1)
            done.signal()
        }
        thread.stackSize = 512 * 1024
        thread.start()
        done.wait()
        XCTAssertEqual(released.values, [1, 0], "kept by the other chain, then released with it")
    }

    /// Builds `maps` chained `map`s over a `create` source, subscribes, pumps three elements through
    /// them, completes, and drops the chain.
    private static func pump(maps: Int) -> [Int] {
        var received: [Int] = []
        do {
            let source = Observable<Int>.create { observer in
                for value in 1...3 { observer.onNext(value) }
                observer.onCompleted()
                return Disposables.create()
            }
            let chain = (0..<maps).reduce(source) { chain, _ in chain.map { $0 + 1 } }
            let subscription = chain.subscribe(onNext: { received.append($0) })
            subscription.dispose()
        }
        return received
    }

    private func onlyInChild() throws {
        guard ProcessInfo.processInfo.environment[Self.childVariable] != nil else {
            throw XCTSkip("an entry point for a child process of the test above it")
        }
    }

    /// Runs `testName`'s `test…` method in a child process of this bundle and fails unless it passed.
    private func runInChild(_ name: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let testName = "test" + name.prefix(1).uppercased() + name.dropFirst()
        let run = try runTestInChildProcess(
            "RxSwiftTests.DeepChainTests/\(testName)", adding: [Self.childVariable: "1"])
        XCTAssertTrue(run.passed, "the child crashed or failed:\n\(run.tail)", file: file, line: line)
    }
}

/// Written by the 512 KiB thread before it signals, read after the wait.
private final class Mutex512KiBResult: @unchecked Sendable {
    var values: [Int] = []
}
