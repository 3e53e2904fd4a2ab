import Dispatch
import Foundation
import RxSwift
import TerminalUI
import XCTest

final class KeyReaderTests: XCTestCase {
    private var pipeEnds: [Int32] = [-1, -1]

    override func setUp() {
        super.setUp()
        XCTAssertEqual(pipe(&pipeEnds), 0)
    }

    override func tearDown() {
        pipeEnds.filter { $0 >= 0 }.forEach { close($0) }
        super.tearDown()
    }

    private func write(_ text: String) {
        write(Array(text.utf8))
    }

    private func write(_ bytes: [UInt8]) {
        XCTAssertEqual(Foundation.write(pipeEnds[1], bytes, bytes.count), bytes.count)
    }

    /// Collects keys until `count` arrived (or completion), checking each is delivered on the main thread.
    private func collect(
        _ keys: Observable<Key>, count: Int, timeout: TimeInterval = 5, while action: () -> Void
    ) -> (keys: [Key], completed: Bool) {
        var received: [Key] = []
        var completed = false
        let done = expectation(description: "keys")
        let subscription = keys.subscribe(
            onNext: { key in
                XCTAssertTrue(Thread.isMainThread)
                received.append(key)
                if received.count == count { done.fulfill() }
            },
            onCompleted: {
                completed = true
                done.fulfill()
            })
        action()
        wait(for: [done], timeout: timeout)
        subscription.dispose()
        return (received, completed)
    }

    func testKeysArriveOnTheMainThread() {
        let keys = KeyReader.keys(fileDescriptor: pipeEnds[0])
        let result = collect(keys, count: 5) { write("서울\u{1B}[A\r\t") }
        XCTAssertEqual(result.keys, [.character("서"), .character("울"), .up, .enter, .tab])
    }

    func testALoneEscapeIsDeliveredAfterTheTimeout() {
        let keys = KeyReader.keys(fileDescriptor: pipeEnds[0], escapeTimeout: .milliseconds(20))
        let result = collect(keys, count: 2) { write("a\u{1B}") }
        XCTAssertEqual(result.keys, [.character("a"), .escape])
    }

    func testASequenceSplitAcrossWritesIsOneKey() {
        // A long timeout: the second half always arrives first, however busy the machine.
        let keys = KeyReader.keys(fileDescriptor: pipeEnds[0], escapeTimeout: .seconds(30))
        let result = collect(keys, count: 2) {
            write("\u{1B}[")
            usleep(50_000)
            write(Array("5~".utf8) + [0xED])  // the first byte of 한
            usleep(50_000)
            write([0x95, 0x9C])
        }
        XCTAssertEqual(result.keys, [.pageUp, .character("한")])
    }

    func testEndOfFileCompletes() {
        let keys = KeyReader.keys(fileDescriptor: pipeEnds[0])
        let result = collect(keys, count: .max) {
            write("q")
            close(pipeEnds[1])
            pipeEnds[1] = -1
        }
        XCTAssertEqual(result.keys, [.character("q")])
        XCTAssertTrue(result.completed)
    }

    func testABadDescriptorIsAnErrorEvent() {
        let failed = expectation(description: "error")
        // Far above any descriptor the test process opens, so it cannot be reused while the test runs.
        let closed: Int32 = 9_999
        XCTAssertEqual(fcntl(closed, F_GETFD), -1)
        let subscription = KeyReader.keys(fileDescriptor: closed).subscribe(onError: { error in
            XCTAssertEqual((error as? TerminalError)?.code, EBADF)
            failed.fulfill()
        })
        wait(for: [failed], timeout: 5)
        subscription.dispose()
    }
}
