import Foundation
import RxCocoa
import RxSwift
import RxTest
import TerminalUI
import Testing

@testable import IGif
@testable import IGifFixtures

/// Giphy in virtual time: each search and each download is answered by the cold observable the test
/// set up for it, and recorded with the time it was made.
private final class FakeGiphyAPI: GiphyAPI {
    let scheduler: TestScheduler
    var searches: [String: TestableObservable<[GiphyGif]>] = [:]
    var downloads: [URL: TestableObservable<GifLoad>] = [:]
    /// Each request, `search text` or `download id`, at the time it was subscribed.
    private(set) var requests: [Recorded<Event<String>>] = []

    init(scheduler: TestScheduler) {
        self.scheduler = scheduler
    }

    func search(text: String) -> Observable<[GiphyGif]> {
        Observable.deferred { [unowned self] in
            requests.append(.next(scheduler.clock, "search \(text)"))
            return searches[text]?.asObservable() ?? .error(GiphyError.rateLimited(message: "API rate limit exceeded"))
        }
    }

    func downloadGif(url: URL) -> Observable<GifLoad> {
        Observable.deferred { [unowned self] in
            requests.append(.next(scheduler.clock, "download \(url.lastPathComponent)"))
            return downloads[url]?.asObservable() ?? .never()
        }
    }
}

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

    /// A two-frame GIF: red for `firstDelay` hundredths, then blue for 30.
    private func animation(firstDelay: Int) throws -> GIFImage {
        let bytes = encodeGIF(
            width: 2, height: 2, colors: [(255, 0, 0), (0, 0, 255)],
            frames: [
                GIFEncoderFrame(width: 2, height: 2, indices: [0, 0, 0, 0], delayCentiseconds: firstDelay),
                GIFEncoderFrame(width: 2, height: 2, indices: [1, 1, 1, 1], delayCentiseconds: 30),
            ])
        return try GIFImage(decoding: bytes)
    }

    private let red = TerminalUI.Image(width: 2, height: 2, color: RGBA(255, 0, 0))
    private let blue = TerminalUI.Image(width: 2, height: 2, color: RGBA(0, 0, 255))

    /// Keys for the letters of a key diagram: `T` is Tab, `D` Down, `U` Up, `B` Backspace, and a
    /// lower-case letter types itself.
    private func type(_ diagram: String) {
        var values: [Character: Key] = ["T": .tab, "D": .down, "U": .up, "B": .backspace]
        for letter in "abcdefghijklmnopqrstuvwxyz" { values[letter] = .character(letter) }
        scheduler.createHotObservable(diagram, values: values)
            .subscribe(onNext: { [viewController] in viewController!.screen.handle($0) })
            .disposed(by: bag)
    }

    private func withViewController(_ test: () throws -> Void) rethrows {
        scheduler = TestScheduler(initialClock: 0, resolution: 0.01, simulateProcessingDelay: false)
        api = FakeGiphyAPI(scheduler: scheduler)
        bag = DisposeBag()
        try SharingScheduler.mock(scheduler: scheduler) {
            viewController = ViewController(api: api, size: Size(columns: 100, rows: 30), scheduler: scheduler)
            viewController.viewDidLoad()
            try test()
        }
    }

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
            #expect(viewController.resultsList.rows == ["A Cat GIF  2×2 · 123 B", "B Cat GIF  2×2 · 123 B"])
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
            #expect(viewController.resultsList.rows == ["New Cat GIF  2×2 · 123 B"])
        }
    }

    /// A failed search shows its error and an empty list, and the next search still works.
    @Test func testAFailedSearchIsShownAndSearchingGoesOn() {
        withViewController {
            api.searches["dogs"] = scheduler.createColdObservable("-r|", values: ["r": [gif("dog")]])
            type("-cat----BBBdogs")
            scheduler.advanceTo(80)
            #expect(viewController.statusLine.displayedText == "⚠ Too many requests (429): API rate limit exceeded")
            #expect(viewController.resultsList.rows == [])
            scheduler.advanceTo(1000)
            #expect(viewController.resultsList.rows == ["Dog Cat GIF  2×2 · 123 B"])
        }
    }

    /// The highlighted row's GIF downloads with a progress bar and then plays, each frame for its own
    /// delay, looping; moving to another row disposes of the download still running; moving back starts
    /// it again (the response cache, below this view controller, makes that instant).
    @Test func testSelectionChangesCancelDownloadsAndTheGIFPlays() throws {
        try withViewController {
            let first = gif("first")
            let second = gif("second")
            api.searches["cats"] = scheduler.createColdObservable("-r|", values: ["r": [first, second]])
            let slowDownload = scheduler.createColdObservable(
                "p-q-------------g|",
                values: ["p": GifLoad.progress(0), "q": .progress(0.5), "g": .gif(try animation(firstDelay: 20))])
            let download = scheduler.createColdObservable(
                "pq-g|",
                values: ["p": GifLoad.progress(0), "q": .progress(0.5), "g": .gif(try animation(firstDelay: 20))])
            api.downloads[first.image.url] = slowDownload
            api.downloads[second.image.url] = download
            // Results at 80 highlight the first row; at 120 the progress is half; Tab at 180 and Down
            // at 190 move to the second row, before the first GIF (due at 240) has arrived.
            type("-cats-------------TD")
            scheduler.advanceTo(120)
            #expect(viewController.gifCell.progressView.progress == 0.5)
            #expect(!viewController.gifCell.progressView.isHidden)
            #expect(viewController.gifCell.gifImageView.image == nil)

            scheduler.advanceTo(190)
            #expect(slowDownload.subscriptions == [Subscription(80, 190)])
            #expect(download.subscriptions == [Subscription(190)])
            // The second GIF arrives at 220: its first frame for 200 ms, the second for 300, again.
            scheduler.advanceTo(220)
            #expect(viewController.gifCell.gifImageView.image == red)
            #expect(viewController.gifCell.progressView.isHidden)
            scheduler.advanceTo(239)
            #expect(viewController.gifCell.gifImageView.image == red)
            scheduler.advanceTo(240)
            #expect(viewController.gifCell.gifImageView.image == blue)
            scheduler.advanceTo(269)
            #expect(viewController.gifCell.gifImageView.image == blue)
            scheduler.advanceTo(270)
            #expect(viewController.gifCell.gifImageView.image == red)

            // Up at 300: the playing GIF is disposed of (no more frames) and the first one asked again.
            scheduler.scheduleAt(300) { self.viewController.screen.handle(.up) }
            // (The second download itself ended at 230, when its file was complete.)
            scheduler.advanceTo(300)
            #expect(download.subscriptions == [Subscription(190, 230)])
            #expect(viewController.gifCell.gifImageView.image == nil)
            #expect(viewController.gifCell.progressView.progress == 0)
            scheduler.advanceTo(400)
            #expect(
                viewController.gifCell.gifImageView.image == nil, Comment(rawValue: "the second GIF no longer plays"))
            #expect(viewController.gifCell.progressView.progress == 0.5, Comment(rawValue: "the first downloads again"))
            #expect(
                api.requests == [
                    .next(70, "search cats"), .next(80, "download first.gif"), .next(190, "download second.gif"),
                    .next(300, "download first.gif"),
                ])
        }
    }

    @Test func testASearchWithNoResultsClearsTheGIF() throws {
        try withViewController {
            let only = gif("only")
            api.searches["cats"] = scheduler.createColdObservable("-r|", values: ["r": [only]])
            api.searches["catzzz"] = scheduler.createColdObservable("-r|", values: ["r": []])
            let download = scheduler.createColdObservable(
                "g", values: ["g": GifLoad.gif(try animation(firstDelay: 10))])
            api.downloads[only.image.url] = download
            type("-cats-----Bzzz")
            scheduler.advanceTo(85)
            #expect(viewController.gifCell.gifImageView.image == red)
            scheduler.advanceTo(2000)
            #expect(viewController.statusLine.displayedText == "No GIFs for “catzzz”")
            #expect(viewController.gifCell.gifImageView.image == nil)
            #expect(download.subscriptions == [Subscription(80, 170)])
        }
    }
}
