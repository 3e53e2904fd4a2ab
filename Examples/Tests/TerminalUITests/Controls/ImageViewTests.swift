import RxCocoa
import RxSwift
import RxTest
import TerminalUI
import Testing

@MainActor
@Suite
final class ImageViewTests {
    private let red = RGB(255, 0, 0)
    private let green = RGB(0, 255, 0)
    private let blue = RGB(0, 0, 255)
    private let white = RGB(255, 255, 255)

    /// Two pixels per cell: `▀` in the top pixel's colour on the bottom pixel's colour; a transparent
    /// pixel leaves the terminal's background.
    @Test func testEachCellIsTwoPixelsWithTransparencyShowingTheBackground() throws {
        let image = try #require(
            Image(
                width: 3, height: 2,
                pixels: [RGBA(red), RGBA(green), .clear, RGBA(blue), .clear, RGBA(white)]))
        let view = ImageView(frame: Rect(column: 0, row: 0, columns: 3, rows: 1), image: image)
        var grid = CellGrid(size: Size(columns: 3, rows: 1))
        view.draw(into: &grid)

        #expect(grid[0, 0] == Cell("▀", style: CellStyle(foreground: red, background: blue)))
        #expect(grid[1, 0] == Cell("▀", style: CellStyle(foreground: green)))  // bottom transparent
        #expect(grid[2, 0] == Cell("▄", style: CellStyle(foreground: white)))  // top transparent
    }

    /// Scaled to fit keeping the aspect ratio, centred, and the letterbox and transparent pixels in the
    /// background colour; a half-transparent pixel is blended with it.
    @Test func testTheImageIsScaledToFitCentredOnTheBackgroundColour() throws {
        // 4×4 pixels in quadrants, one of them half transparent, into 6 columns × 1 row (6×2 pixels):
        // the height limits, so 2×2 pixels (each the average of a quadrant) in columns 2 and 3.
        let grey = RGB(100, 100, 100)
        var pixels: [RGBA] = []
        for y in 0..<4 {
            for x in 0..<4 {
                switch (x < 2, y < 2) {
                case (true, true): pixels.append(RGBA(red))
                case (false, true): pixels.append(RGBA(0, 0, 0, 128))
                case (true, false): pixels.append(x == 0 ? RGBA(blue) : RGBA(0, 0, 155))  // averages to 205
                case (false, false): pixels.append(.clear)
                }
            }
        }
        let image = try #require(Image(width: 4, height: 4, pixels: pixels))
        #expect(ImageView.fittedSize(of: image, in: Size(columns: 6, rows: 1)).width == 2)
        let view = ImageView(frame: Rect(column: 0, row: 0, columns: 6, rows: 1), image: image)
        view.backgroundColor = grey
        var grid = CellGrid(size: Size(columns: 6, rows: 1))
        view.draw(into: &grid)

        let background = Cell(" ", style: CellStyle(background: grey))
        #expect([grid[0, 0], grid[1, 0], grid[4, 0], grid[5, 0]] == Array(repeating: background, count: 4))
        #expect(grid[2, 0] == Cell("▀", style: CellStyle(foreground: red, background: RGB(0, 0, 205))))
        // Black at alpha 128 over grey 100: 100 × 127 / 255 ≈ 50; the transparent quadrant is grey.
        #expect(grid[3, 0] == Cell("▀", style: CellStyle(foreground: RGB(50, 50, 50), background: grey)))
    }

    @Test func testFittingKeepsTheAspectRatio() throws {
        let wide = Image(width: 8, height: 2, color: RGBA(red))
        #expect(ImageView.fittedSize(of: wide, in: Size(columns: 4, rows: 4)) == (4, 1))
        let tall = Image(width: 2, height: 8, color: RGBA(red))
        #expect(ImageView.fittedSize(of: tall, in: Size(columns: 4, rows: 4)) == (2, 8))
        let small = Image(width: 1, height: 1, color: RGBA(red))
        #expect(ImageView.fittedSize(of: small, in: Size(columns: 3, rows: 2)) == (3, 3))  // enlarged
        #expect(ImageView.fittedSize(of: small, in: Size(columns: 0, rows: 2)) == (0, 0))
        #expect(Image(width: 2, height: 2, pixels: [RGBA(red)]) == nil)
    }

    /// GIF frames bound to `rx.image` in virtual time: each frame replaces the last; `nil` clears.
    @Test func testRxImageShowsEachFrame() {
        let scheduler = TestScheduler(initialClock: 0)
        let bag = DisposeBag()
        let screen = Screen(size: Size(columns: 2, rows: 1), minimumSize: .zero)
        let view = ImageView(frame: Rect(column: 0, row: 0, columns: 2, rows: 1))
        screen.addSubview(view)
        let frames: [Image?] = [
            Image(width: 2, height: 2, color: RGBA(red)), Image(width: 2, height: 2, color: RGBA(blue)), nil,
        ]
        scheduler.createHotObservable([.next(210, frames[0]), .next(220, frames[1]), .next(230, frames[2])])
            .bind(to: view.rx.image).disposed(by: bag)
        var seen: [Int: Cell] = [:]
        for time in [200, 215, 225, 235] {
            scheduler.scheduleAt(time) { seen[time] = screen.render().grid[1, 0] }
        }
        scheduler.start()

        #expect(seen[200] == Cell(" "))
        #expect(seen[215] == Cell("▀", style: CellStyle(foreground: red, background: red)))
        #expect(seen[225] == Cell("▀", style: CellStyle(foreground: blue, background: blue)))
        #expect(seen[235] == Cell(" "))
    }

    /// The renderer writes the pixels as 24-bit colours, or their nearest palette colours.
    @Test func testThePixelsDegradeWithTheColourMode() throws {
        let image = try #require(Image(width: 1, height: 2, pixels: [RGBA(255, 0, 0), RGBA(0, 0, 255)]))
        let view = ImageView(frame: Rect(column: 0, row: 0, columns: 1, rows: 1), image: image)
        var grid = CellGrid(size: Size(columns: 1, rows: 1))
        view.draw(into: &grid)
        var trueColor = Renderer(colorMode: .trueColor)
        #expect(trueColor.render(grid).contains("38;2;255;0;0"))
        var palette = Renderer(colorMode: .ansi256)
        let output = palette.render(grid)
        #expect(output.contains("38;5;196") && output.contains("48;5;21"), Comment(rawValue: output.debugDescription))
    }
}
