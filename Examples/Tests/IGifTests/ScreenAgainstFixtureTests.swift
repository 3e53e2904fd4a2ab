import ExampleTestSupport
import Foundation
import RxSwift
import TerminalUI
import XCTest

@testable import IGif
@testable import IGifFixtures

/// The whole screen on the main run loop against the fixture server, through the real `ApiController`
/// and its one shared session: the cells that scroll off cancel their downloads, and the server sees
/// their connections closed.
final class ScreenAgainstFixtureTests: XCTestCase {
    func testCellsScrolledOffCancelTheirDownloadsAtTheServer() throws {
        // Each GIF takes 5 s to arrive: every download is still running when its cell scrolls off.
        let server = try FixtureServer.start(searchDelay: .zero, mediaDelay: .seconds(5))
        defer { server.stop() }
        // A session of its own, so its task count is this test's alone.
        let session = TransferEvents.makeSession()
        let api = ApiController(
            searchURL: server.searchURL, apiKey: FixtureServer.apiKey, session: session, cache: InternalCache())
        let counters = server.counters
        // The controller is the main actor's, and XCTest runs this method on the main thread. What the
        // closure needs is made here, apart from the test case, which stays nonisolated.
        MainActor.assumeIsolated {
            let deadline = Date().addingTimeInterval(30)
            func spin(until condition: () -> Bool) -> Bool {
                while !condition() {
                    guard Date() < deadline else { return false }
                    RunLoop.main.run(until: Date().addingTimeInterval(0.01))
                }
                return true
            }
            // 60 × 21: a grid of 2 × 2 cells.
            let viewController = ViewController(api: api, size: Size(columns: 60, rows: 21))
            viewController.viewDidLoad()
            for letter in "cats" { viewController.screen.handle(.character(letter)) }
            guard spin(until: { counters.media.count == 4 }) else {
                return XCTFail("the four visible GIFs were never asked for: \(counters.media)")
            }
            let firstRow = Array(counters.media.prefix(2))

            // Tab to the grid, Down twice: the first row scrolls off, the third comes on.
            for key in [Key.tab, .down, .down] { viewController.screen.handle(key) }
            XCTAssertEqual(viewController.gridView.visibleItems, 2..<6)
            guard spin(until: { counters.abandoned == 2 && counters.media.count == 6 }) else {
                return XCTFail("abandoned \(counters.abandoned), asked \(counters.media)")
            }
            XCTAssertEqual(counters.completed, 0)
            XCTAssertEqual(Set(counters.media).count, 6)
            XCTAssertTrue(Set(firstRow).isDisjoint(with: counters.media.suffix(2)))
            XCTAssertEqual((session.delegate as? TransferEvents)?.activeTasks, 4)

            // Every cell reused (what a new search does): nothing left downloading.
            viewController.cells.forEach { $0.prepareForReuse() }
            XCTAssertTrue(spin(until: { counters.abandoned == 6 }), "abandoned \(counters.abandoned)")
            XCTAssertTrue(spin(until: { (session.delegate as? TransferEvents)?.activeTasks == 0 }))
        }
    }
}
