import Foundation
import RxTest
import XCTest

@testable import RxSwift

final class DebugTests: RxLeakCheckingTestCase {
    /// Collects the lines a `debug` writes, without their timestamps.
    private final class Lines {
        var lines: [String] = []
        var timestamps: [String] = []

        func write(_ line: String) {
            // "yyyy-MM-dd HH:mm:ss.SSS: " is 25 characters.
            timestamps.append(String(line.prefix(23)))
            lines.append(String(line.dropFirst(25)))
        }
    }

    private func debugged<Element>(_ source: Observable<Element>, _ id: String, trim: Bool = false, into lines: Lines)
        -> Observable<Element>
    {
        DebugObservable(source: source, identifier: id, trimOutput: trim) { lines.write($0) }
    }

    func testLogsSubscriptionEventsAndDisposalInRxSwiftsFormat() {
        let scheduler = TestScheduler(initialClock: 0)
        let lines = Lines()
        let xs = scheduler.createHotObservable("^a-b|", values: ["a": 1, "b": 2])
        let res = scheduler.start { self.debugged(xs.asObservable(), "source", into: lines) }
        XCTAssertMarbles(res, "^a-b|", values: ["a": 1, "b": 2])
        XCTAssertEqual(
            lines.lines,
            [
                "source -> subscribed", "source -> Event next(1)", "source -> Event next(2)",
                "source -> Event completed", "source -> isDisposed",
            ])
        for timestamp in lines.timestamps {
            XCTAssertNotNil(
                timestamp.range(of: #"^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}$"#, options: .regularExpression),
                timestamp)
        }
    }

    func testLogsErrors() {
        let scheduler = TestScheduler(initialClock: 0)
        let lines = Lines()
        let xs: TestableObservable<Int> = scheduler.createHotObservable("^-#", error: testError)
        let res = scheduler.start { self.debugged(xs.asObservable(), "x", into: lines) }
        XCTAssertMarbles(res, "^-#", error: testError)
        XCTAssertEqual(lines.lines, ["x -> subscribed", "x -> Event error(\(testError))", "x -> isDisposed"])
    }

    func testNeverLogsDisposalWhenDisposed() {
        let scheduler = TestScheduler(initialClock: 0)
        let lines = Lines()
        let xs = scheduler.createHotObservable([Recorded<Event<Int>>]())
        let res = scheduler.start { self.debugged(xs.asObservable(), "x", into: lines) }
        XCTAssertEqual(res.events, [])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 1000)])
        XCTAssertEqual(lines.lines, ["x -> subscribed", "x -> isDisposed"])
    }

    func testDisposedEarlyLogsDisposalOnce() {
        let scheduler = TestScheduler(initialClock: 0)
        let lines = Lines()
        let xs = scheduler.createHotObservable("^a-b|", values: ["a": 1, "b": 2])
        let res = scheduler.start(disposed: 220) { self.debugged(xs.asObservable(), "x", into: lines) }
        XCTAssertMarbles(res, "^a", values: ["a": 1])
        XCTAssertMarbles(xs.subscriptions, "^-!")
        XCTAssertEqual(lines.lines, ["x -> subscribed", "x -> Event next(1)", "x -> isDisposed"])
    }

    func testTrimsLongEventsToTheirEnds() {
        let lines = Lines()
        let long = String(repeating: "a", count: 30) + String(repeating: "b", count: 30)
        _ = debugged(Observable.just(long), "x", trim: true, into: lines).subscribe()
        _ = debugged(Observable.just("short"), "y", trim: true, into: lines).subscribe()
        let trimmed = "next(" + String(repeating: "a", count: 15) + "..." + String(repeating: "b", count: 19) + ")"
        XCTAssertEqual(lines.lines[1], "x -> Event \(trimmed)")
        XCTAssertEqual(lines.lines[1].count, "x -> Event ".count + 43)
        XCTAssertEqual(lines.lines[5], "y -> Event next(short)")
    }

    func testDoesNotTrimByDefault() {
        let lines = Lines()
        let long = String(repeating: "z", count: 60)
        _ = debugged(Observable.just(long), "x", into: lines).subscribe()
        XCTAssertEqual(lines.lines[1], "x -> Event next(\(long))")
    }

    func testChainedDebugsLogDisposalFromTheOutsideIn() {
        let lines = Lines()
        let subject = PublishSubject<Int>()
        let inner = debugged(subject.asObservable(), "inner", into: lines)
        let subscription = debugged(inner, "outer", into: lines).subscribe()
        subscription.dispose()
        XCTAssertEqual(
            lines.lines, ["outer -> subscribed", "inner -> subscribed", "outer -> isDisposed", "inner -> isDisposed"])
    }

    func testDefaultIdentifierIsTheCallSite() {
        XCTAssertEqual(
            DebugObservable<Int>.defaultIdentifier(
                file: "RxSwiftTests/Operators/DebugTests.swift", line: 42, function: "testSomething()"),
            "DebugTests.swift:42 (testSomething())")
        XCTAssertEqual(
            DebugObservable<Int>.defaultIdentifier(file: "NoFolder.swift", line: 1, function: "f()"),
            "NoFolder.swift:1 (f())")
    }

    func testTimestampIsLocalTimeWithMilliseconds() {
        let saved = getenv("TZ").map { String(cString: $0) }
        setenv("TZ", "UTC", 1)
        tzset()
        defer {
            if let saved { setenv("TZ", saved, 1) } else { unsetenv("TZ") }
            tzset()
        }
        XCTAssertEqual(DebugTimestamp.format(secondsSince1970: 1_700_000_000.5), "2023-11-14 22:13:20.500")
        XCTAssertEqual(DebugTimestamp.format(secondsSince1970: 0.25), "1970-01-01 00:00:00.250")
        XCTAssertEqual(DebugTimestamp.format(secondsSince1970: 86_399.999), "1970-01-01 23:59:59.999")
        setenv("TZ", "Asia/Seoul", 1)
        tzset()
        XCTAssertEqual(DebugTimestamp.format(secondsSince1970: 0), "1970-01-01 09:00:00.000")
    }

    func testPublicDebugPrintsToStandardOutputAndPassesEventsOn() throws {
        var received: [Int] = []
        let output = try captureStandardOutput {
            _ = Observable.of(1, 2).debug("numbers").subscribe(onNext: { received.append($0) })
            _ = Observable.just(3).debug().subscribe()
        }
        XCTAssertEqual(received, [1, 2])
        let lines = output.split(separator: "\n").map { String($0.dropFirst(25)) }
        let line = #line - 4
        XCTAssertEqual(
            lines,
            [
                "numbers -> subscribed", "numbers -> Event next(1)", "numbers -> Event next(2)",
                "numbers -> Event completed", "numbers -> isDisposed",
                "DebugTests.swift:\(line) (testPublicDebugPrintsToStandardOutputAndPassesEventsOn()) -> subscribed",
                "DebugTests.swift:\(line) (testPublicDebugPrintsToStandardOutputAndPassesEventsOn()) -> Event next(3)",
                "DebugTests.swift:\(line) (testPublicDebugPrintsToStandardOutputAndPassesEventsOn()) -> Event completed",
                "DebugTests.swift:\(line) (testPublicDebugPrintsToStandardOutputAndPassesEventsOn()) -> isDisposed",
            ])
    }

    /// Runs `body` with standard output redirected into a pipe, and returns what it printed.
    private func captureStandardOutput(_ body: () -> Void) throws -> String {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw POSIXError(.EIO) }
        fflush(nil)
        let saved = dup(STDOUT_FILENO)
        dup2(ends[1], STDOUT_FILENO)
        body()
        fflush(nil)
        dup2(saved, STDOUT_FILENO)
        close(saved)
        close(ends[1])
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(ends[0], &buffer, buffer.count)
            if count <= 0 { break }
            data.append(contentsOf: buffer[0..<count])
        }
        close(ends[0])
        return String(decoding: data, as: UTF8.self)
    }
}
