import Foundation
import RxCocoa
import RxSwift
import RxTest
import TerminalUI
import Testing

private struct OfflineError: LocalizedError {
    var errorDescription: String? { "인터넷 연결 없음" }
}

@MainActor
@Suite
final class StatusLineTests {
    /// A message, then an error replacing it, then a message replacing the error, in virtual time.
    @Test func testTheLastOfMessageAndErrorIsShown() {
        let scheduler = TestScheduler(initialClock: 0)
        let bag = DisposeBag()
        let screen = Screen(size: Size(columns: 20, rows: 2))
        let status = StatusLine(frame: Rect(column: 0, row: 1, columns: 20, rows: 1))
        screen.addSubview(status)
        scheduler.createHotObservable([.next(210, "검색 중…" as String?), .next(230, "서울: 맑음"), .next(250, nil)])
            .bind(to: status.rx.text).disposed(by: bag)
        scheduler.createHotObservable([.next(220, OfflineError() as Error?)])
            .bind(to: status.rx.error).disposed(by: bag)
        var seen: [Int: String] = [:]
        var styles: [Int: CellStyle] = [:]
        for time in [200, 215, 225, 235, 255] {
            scheduler.scheduleAt(time) {
                let frame = screen.render().grid
                seen[time] = frame.line(1)
                styles[time] = frame[19, 1].style
            }
        }
        scheduler.start()

        #expect(seen[200] == "")
        #expect(seen[215] == "검색 중…")
        #expect(seen[225] == "⚠ 인터넷 연결 없음")
        #expect(styles[225] == status.errorStyle)  // the whole line, to its last column
        #expect(seen[235] == "서울: 맑음")
        #expect(styles[235] == status.style)
        #expect(status.error == nil)
        #expect(seen[255] == "")
        #expect(styles[255] == .plain)  // an empty line is not filled
    }

    /// The location manager's errors (plain `Error` elements) on the status line, as an application
    /// shows them; an error without a localized description reads as its `description`.
    @Test func testLocationErrorsReadAsTheirDescription() {
        let status = StatusLine(frame: Rect(column: 0, row: 0, columns: 60, rows: 1))
        let errors = PublishSubject<Error>()
        let subscription = errors.map { $0 as Error? }.bind(to: status.rx.error)
        errors.onNext(LocationError.gpsdUnreachable(host: "127.0.0.1", port: 2947, reason: "Connection refused"))
        #expect(status.displayedText == "⚠ no gpsd at 127.0.0.1:2947 (Connection refused); using the fixed location")
        var grid = CellGrid(size: Size(columns: 20, rows: 1))
        status.frame = Rect(column: 0, row: 0, columns: 20, rows: 1)
        status.draw(into: &grid)
        #expect(grid.line(0) == "⚠ no gpsd at 127.0.0")  // clipped to the frame
        subscription.dispose()
    }
}
