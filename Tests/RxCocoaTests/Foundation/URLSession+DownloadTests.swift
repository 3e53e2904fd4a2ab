import Foundation
import RxBlocking
import RxCocoa
import RxSwift
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

final class DownloadProgressTests: NetworkingTestCase {
    func testALargeBodyReportsProgressInOrderThenTheResponse() throws {
        let events = try session.rx.download(request: server.request("/large")).toBlocking(timeout: 20).toArray()
        let progress = events.compactMap(\.progress)
        XCTAssertGreaterThan(progress.count, 3)
        XCTAssertEqual(progress.first, DownloadProgress(bytesReceived: 0, totalBytes: 1 << 20))
        XCTAssertEqual(progress.last, DownloadProgress(bytesReceived: 1 << 20, totalBytes: 1 << 20))
        XCTAssertEqual(progress.last?.fractionCompleted, 1)
        XCTAssertTrue(zip(progress, progress.dropFirst()).allSatisfy { $0.bytesReceived <= $1.bytesReceived })
        XCTAssertNil(events.dropLast().first { $0.result != nil }, "the response comes last")
        let result = try XCTUnwrap(events.last?.result)
        XCTAssertEqual(result.response.statusCode, 200)
        XCTAssertEqual(result.data.count, 1 << 20)
        XCTAssertEqual(result.data[(64 << 10) * 3], 3)
    }

    func testWithoutAContentLengthTheTotalIsUnknown() throws {
        let events = try session.rx.download(request: server.request("/chunked")).toBlocking(timeout: 20).toArray()
        let progress = events.compactMap(\.progress)
        XCTAssertTrue(progress.allSatisfy { $0.totalBytes == nil && $0.fractionCompleted == nil }, "\(progress)")
        XCTAssertEqual(progress.last?.bytesReceived, 3000)
        XCTAssertEqual(events.last?.result?.data, Data(repeating: 68, count: 3000))
    }

    func testProgressAlone() throws {
        let pairs = try session.rx.progress(request: server.request("/large")).toBlocking(timeout: 20).toArray()
        XCTAssertEqual(pairs.last?.bytesReceived, 1 << 20)
        XCTAssertEqual(pairs.last?.totalBytes, 1 << 20)
    }

    func testDownloadErrorsAndDisposal() {
        let failure = error(of: session.rx.download(request: server.request("/truncated")))
        XCTAssertTrue(failure is URLError, "\(String(describing: failure))")

        let received = Recorder<DownloadProgress>()
        let subscription = session.rx.download(request: server.request("/slow"))
            .subscribe(onNext: { event in event.progress.map(received.append) })
        eventually { received.values.count >= 3 }
        subscription.dispose()
        let countAtDisposal = received.values.count
        eventually { self.server.stats.abandoned == ["/slow"] }
        XCTAssertEqual(received.values.count, countAtDisposal)
        XCTAssertNil(DownloadProgress(bytesReceived: 5, totalBytes: nil).fractionCompleted)
    }
}
