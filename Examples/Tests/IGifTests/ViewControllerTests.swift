import Foundation
import RxCocoa
import RxDataSources
import RxSwift
import RxTest
import TerminalUI
import Testing

@testable import IGif
@testable import IGifFixtures

/// The view controller wired by `viewDidLoad()`, driven with keys in virtual time: one tick is 10 ms,
/// a marble frame is ten ticks (100 ms), so the 300 ms debounce is three frames.
@MainActor
@Suite
final class ViewControllerTests {
    private var scheduler: TestScheduler!
    private var api: FakeGiphyAPI!
    private var viewController: ViewController!
    private var bag: DisposeBag!

    private func gif(_ id: String) -> GiphyGif {
        GiphyGif(
            id: id, title: "\(id.capitalized) Cat GIF",
            image: .init(height: "2", width: "2", size: "123", url: URL(string: "http://giphy.test/media/\(id).gif")!))
    }

    /// A two-frame GIF: red for `firstDelay` hundredths, then blue for 30, with `loopCount`.
    private func animation(firstDelay: Int, loopCount: Int? = 0) throws -> GIFImage {
        let bytes = encodeGIF(
            width: 2, height: 2, colors: [(255, 0, 0), (0, 0, 255)],
            frames: [
                GIFEncoderFrame(width: 2, height: 2, indices: [0, 0, 0, 0], delayCentiseconds: firstDelay),
                GIFEncoderFrame(width: 2, height: 2, indices: [1, 1, 1, 1], delayCentiseconds: 30),
            ], loopCount: loopCount ?? 0)
        var gif = try GIFImage(decoding: bytes)
        if loopCount == nil { gif = GIFImage(width: gif.width, height: gif.height, frames: gif.frames, loopCount: nil) }
        return gif
    }

    private let red = TerminalUI.Image(width: 2, height: 2, color: RGBA(255, 0, 0))
    private let blue = TerminalUI.Image(width: 2, height: 2, color: RGBA(0, 0, 255))

    /// Keys for the letters of a key diagram: `T` is Tab, `D` Down, `U` Up, `B` Backspace, `P` Page
    /// Down, `R` Right, `E` Enter, and a lower-case letter types itself.
    private func type(_ diagram: String) {
        var values: [Character: Key] = [
            "T": .tab, "D": .down, "U": .up, "B": .backspace, "P": .pageDown, "R": .right, "E": .enter,
        ]
        for letter in "abcdefghijklmnopqrstuvwxyz" { values[letter] = .character(letter) }
        scheduler.createHotObservable(diagram, values: values)
            .subscribe(onNext: { [viewController] in viewController!.screen.handle($0) })
            .disposed(by: bag)
    }

    /// A 60×21 screen: a grid of 2 × 2 cells.
    private func withViewController(_ test: () throws -> Void) rethrows {
        scheduler = TestScheduler(initialClock: 0, resolution: 0.01, simulateProcessingDelay: false)
        api = FakeGiphyAPI(scheduler: scheduler)
        bag = DisposeBag()
        try SharingScheduler.mock(scheduler: scheduler) {
            viewController = ViewController(api: api, size: Size(columns: 60, rows: 21), scheduler: scheduler)
            viewController.viewDidLoad()
            try test()
        }
    }

    private var shownIDs: [String] { viewController.gifs.map(\.id) }

    /// Typing a word makes one search, 300 ms after the last key, and only from three letters on.
    @Test func testTypingIsDebounced() {
        withViewController {
            api.searches["cats"] = scheduler.createColdObservable("-r|", values: ["r": [gif("a"), gif("b")]])
            type("-ca--ts")
            scheduler.advanceTo(89)
            #expect(api.requests == [])
            scheduler.advanceTo(1000)
            // "cat" at 50 was followed by "cats" at 60, within 300 ms: only "cats" is searched, at 90.
            #expect(api.requests.first == .next(90, "search cats"))
            #expect(shownIDs == ["a", "b"])
            #expect(viewController.cell(forItem: 1)?.captionLabel.text == "B Cat GIF")
            #expect(viewController.statusLine.displayedText == "2 GIFs for “cats”")
        }
    }

    /// A newer query disposes of the search still running for an older one (flatMapLatest): the
    /// stale results never show.
    @Test func testAStaleSearchIsCancelled() {
        withViewController {
            let slow = scheduler.createColdObservable("--------s|", values: ["s": [gif("stale")]])
            api.searches["cat"] = slow
            api.searches["cats"] = scheduler.createColdObservable("--n|", values: ["n": [gif("new")]])
            type("-cat----s")
            scheduler.advanceTo(2000)
            #expect(Array(api.requests.prefix(2)) == [.next(60, "search cat"), .next(110, "search cats")])
            #expect(slow.subscriptions == [Subscription(60, 110)])
            #expect(shownIDs == ["new"])
        }
    }

    /// A failed search shows its error and an empty grid, and the next search still works.
    @Test func testAFailedSearchIsShownAndSearchingGoesOn() {
        withViewController {
            api.searches["dogs"] = scheduler.createColdObservable("-r|", values: ["r": [gif("dog")]])
            type("-cat----BBBdogs")
            scheduler.advanceTo(80)
            #expect(viewController.statusLine.displayedText == "⚠ Too many requests (429): API rate limit exceeded")
            #expect(shownIDs == [])
            scheduler.advanceTo(1000)
            #expect(shownIDs == ["dog"])
        }
    }

    /// Every visible cell downloads its own GIF at once, each into its own `SingleAssignmentDisposable`.
    /// Scrolling down a row (Down twice from the first item) takes the top row off the screen: those
    /// two cells are disposed of (their downloads cancelled), given a new disposable, and reused for
    /// the two items that came on, while the middle row keeps downloading undisturbed.
    @Test func testScrollingReusesCellsAndCancelsTheirDownloads() {
        withViewController {
            let results = (0..<6).map { gif("g\($0)") }
            api.searches["cats"] = scheduler.createColdObservable("-r|", values: ["r": results])
            var downloads: [TestableObservable<GifLoad>] = []
            for result in results {
                let download = scheduler.createColdObservable(
                    "p-q-------", values: ["p": GifLoad.progress(0), "q": .progress(0.5)])
                api.downloads[result.image.url] = download
                downloads.append(download)
            }
            // Results at 80; Tab at 150 focuses the grid; Down at 160 (item 2, still visible) and 170
            // (item 4: the grid scrolls a row).
            type("-cats----------TDD")
            scheduler.advanceTo(100)
            #expect(viewController.visibleCells.keys.sorted() == [0, 1, 2, 3])
            #expect(viewController.cell(forItem: 0)?.progressView.progress == 0.5)
            let top = [viewController.cell(forItem: 0)!, viewController.cell(forItem: 1)!]
            let oldDisposables = top.map(\.disposable)
            #expect(Set(viewController.cells.prefix(4).map { ObjectIdentifier($0.disposable) }).count == 4)

            scheduler.advanceTo(170)
            #expect(viewController.gridView.visibleItems == 2..<6)
            #expect(
                downloads.map(\.subscriptions) == [
                    [Subscription(80, 170)], [Subscription(80, 170)], [Subscription(80)], [Subscription(80)],
                    [Subscription(170)], [Subscription(170)],
                ])
            // The cells of items 0 and 1 now show items 4 and 5, with new disposables.
            #expect(viewController.cell(forItem: 4) === top[0])
            #expect(viewController.cell(forItem: 5) === top[1])
            #expect(oldDisposables.allSatisfy { $0.isDisposed })
            #expect(top.allSatisfy { !$0.disposable.isDisposed && $0.disposable !== oldDisposables[0] })
            #expect(top[0].captionLabel.text == "G4 Cat GIF")
            #expect(top[0].progressView.progress == 0)
            #expect(
                Array(api.requests.suffix(2)) == [.next(170, "download g4.gif"), .next(170, "download g5.gif")])
        }
    }

    /// A larger terminal shows more cells (each downloading its GIF), a smaller one fewer: the cells
    /// that no longer fit are reused, their downloads disposed of.
    @Test func testResizingShowsMoreOrFewerCells() {
        withViewController {
            let results = (0..<8).map { gif("g\($0)") }
            api.searches["cats"] = scheduler.createColdObservable("-r|", values: ["r": results])
            var downloads: [TestableObservable<GifLoad>] = []
            for result in results {
                let download = scheduler.createColdObservable("p---------", values: ["p": GifLoad.progress(0)])
                api.downloads[result.image.url] = download
                downloads.append(download)
            }
            type("-cats")
            // 80 × 24 at 100: three across, two down; 60 × 13 at 200: two cells.
            scheduler.scheduleAt(100) { self.viewController.screen.resize(to: Size(columns: 80, rows: 24)) }
            scheduler.scheduleAt(200) { self.viewController.screen.resize(to: Size(columns: 60, rows: 13)) }
            scheduler.advanceTo(300)
            #expect(viewController.gridView.visibleItems == 0..<2)
            #expect(
                downloads.map(\.subscriptions) == [
                    [Subscription(80)], [Subscription(80)], [Subscription(80, 200)], [Subscription(80, 200)],
                    [Subscription(100, 200)], [Subscription(100, 200)], [], [],
                ])
        }
    }

    /// A GIF shows its download's progress, then "decoding…", then plays each frame for its own delay,
    /// as many times as its loop count says, then stays on its last frame; a search with no results
    /// clears the cells and disposes of the animation.
    @Test func testTheGIFPlaysItsLoopCountThenStops() throws {
        try withViewController {
            let only = gif("only")
            api.searches["cats"] = scheduler.createColdObservable("-r|", values: ["r": [only]])
            api.searches["catzzz"] = scheduler.createColdObservable("-r|", values: ["r": []])
            // Loop count 1: played twice, red 200 ms then blue 300 ms each time.
            let download = scheduler.createColdObservable(
                "pdg|",
                values: [
                    "p": GifLoad.progress(0.5), "d": .decoding, "g": .gif(try animation(firstDelay: 20, loopCount: 1)),
                ])
            api.downloads[only.image.url] = download
            type("-cats-------------------------------------Bzzz")
            scheduler.advanceTo(80)
            let cell = try #require(viewController.cell(forItem: 0))
            #expect(cell.progressView.progress == 0.5)
            #expect(!cell.progressView.isHidden)
            #expect(cell.statusLabel.text == nil)
            #expect(viewController.screen.text.contains("███░░░░░░░░░░░  50%"), "the bar is drawn")
            scheduler.advanceTo(90)
            #expect(cell.progressView.isHidden)
            #expect(cell.statusLabel.text == "decoding…")
            #expect(viewController.screen.text.contains("decoding…"))
            #expect(cell.gifImageView.image == nil)
            scheduler.advanceTo(100)
            #expect(cell.gifImageView.image == red)
            #expect(cell.progressView.isHidden)
            #expect(cell.statusLabel.text == "▶ plays 2 times")
            scheduler.advanceTo(119)
            #expect(cell.gifImageView.image == red)
            scheduler.advanceTo(120)
            #expect(cell.gifImageView.image == blue)
            scheduler.advanceTo(150)
            #expect(cell.gifImageView.image == red)
            scheduler.advanceTo(170)
            #expect(cell.gifImageView.image == blue)
            #expect(cell.statusLabel.text == "■ plays 2 times")
            scheduler.advanceTo(400)
            #expect(cell.gifImageView.image == blue, "the last frame stays")

            scheduler.advanceTo(2000)
            #expect(viewController.statusLine.displayedText == "No GIFs for “catzzz”")
            #expect(viewController.visibleCells.isEmpty)
            #expect(cell.gifImageView.image == nil)
            #expect(cell.disposable.isDisposed == false)
        }
    }

    /// The results are the grid's one section, bound with `rx.items(dataSource:)`: Enter on the
    /// highlighted cell selects its index path and its GIF, which the status line describes, and the
    /// visible items are the grid's.
    @Test func testTheGridIsBoundToTheResultsAndSelectsTheirGIFs() {
        withViewController {
            let results = (0..<6).map { gif("g\($0)") }
            api.searches["cats"] = scheduler.createColdObservable("-r|", values: ["r": results])
            let paths = scheduler.createObserver(IndexPath.self)
            let models = scheduler.createObserver(GiphyGif.self)
            viewController.gridView.rx.itemSelected.subscribe(paths).disposed(by: bag)
            viewController.gridView.rx.modelSelected(GiphyGif.self).subscribe(models).disposed(by: bag)
            // Results at 80; Tab at 150, Right at 160, Down at 170 (item 3), Enter at 180.
            type("-cats----------TRDE")
            scheduler.advanceTo(100)
            #expect(
                viewController.gridView.indexPathsForVisibleItems == (0..<4).map { IndexPath(item: $0, section: 0) })
            #expect(viewController.dataSource.sectionModels.map(\.model) == ["cats"])
            scheduler.advanceTo(200)
            #expect(paths.events == [.next(180, IndexPath(item: 3, section: 0))])
            #expect(models.events.map(\.value.element?.id) == ["g3"])
            #expect(viewController.cell(forItem: 3)?.gif?.id == "g3")
            #expect(
                viewController.statusLine.displayedText == "G3 Cat GIF  2×2 · 123 B · http://giphy.test/media/g3.gif")
        }
    }

    /// Loop count 0 plays for ever; no loop extension plays once.
    @Test func testLoopCounts() throws {
        let scheduler = TestScheduler(initialClock: 0, resolution: 0.01, simulateProcessingDelay: false)
        let frames = GifCell.frames(of: try animation(firstDelay: 10, loopCount: 0))
        let (red, blue) = (red, blue)
        func play(_ loopCount: Int?, from start: Int) -> TestableObserver<String> {
            let observer = scheduler.createObserver(String.self)
            scheduler.scheduleAt(start) {
                let subscription = GifCell.animation(of: frames, loopCount: loopCount, scheduler: scheduler)
                    .map { $0 == red ? "r" : $0 == blue ? "b" : "?" }
                    .subscribe(observer)
                scheduler.scheduleAt(start + 1000) { subscription.dispose() }
            }
            return observer
        }
        let forever = play(0, from: 0)
        let once = play(nil, from: 2000)
        scheduler.advanceTo(5000)
        // Red 100 ms, blue 300 ms, until disposed of at 1000.
        let times = stride(from: 0, to: 1000, by: 40).flatMap { [$0, $0 + 10] }
        #expect(forever.events.map(\.time) == times)
        #expect(forever.events.map(\.value.element) == times.indices.map { $0 % 2 == 0 ? "r" : "b" })
        #expect(once.events == [.next(2000, "r"), .next(2010, "b"), .completed(2010)])
    }
}
