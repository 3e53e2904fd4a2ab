import RxCocoa
import RxSwift

/// A colour with opacity: one pixel of an ``Image``.
public struct RGBA: Hashable, Sendable {
    /// Red, 0...255.
    public var red: UInt8
    /// Green, 0...255.
    public var green: UInt8
    /// Blue, 0...255.
    public var blue: UInt8
    /// Opacity, 0 (transparent) ... 255 (opaque).
    public var alpha: UInt8

    /// Creates a pixel; opaque by default.
    public init(_ red: UInt8, _ green: UInt8, _ blue: UInt8, _ alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// An opaque pixel of `color`.
    public init(_ color: RGB) {
        self.init(color.red, color.green, color.blue)
    }

    /// A fully transparent pixel.
    public static let clear = RGBA(0, 0, 0, 0)
}

/// A picture (`UIImage`): `width` × `height` pixels, row by row from the top left. One frame of a GIF
/// is an `Image` too; an animation is a sequence of them bound to ``ImageView``'s `rx.image`.
public struct Image: Hashable, Sendable {
    /// Columns of pixels.
    public let width: Int
    /// Rows of pixels.
    public let height: Int
    /// `width * height` pixels, row-major from the top left.
    public let pixels: [RGBA]

    /// Creates an image; `nil` when `pixels` does not hold `width * height` pixels.
    public init?(width: Int, height: Int, pixels: [RGBA]) {
        guard width >= 0, height >= 0, pixels.count == width * height else { return nil }
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// An image of one colour.
    public init(width: Int, height: Int, color: RGBA) {
        self.width = max(0, width)
        self.height = max(0, height)
        self.pixels = Array(repeating: color, count: self.width * self.height)
    }

    /// The pixel at `x`, `y` (from the top left); transparent outside the image.
    public subscript(x: Int, y: Int) -> RGBA {
        guard x >= 0, x < width, y >= 0, y < height else { return .clear }
        return pixels[y * width + x]
    }

    /// The image resampled to `width` × `height`: each new pixel is the average of the source pixels
    /// it covers (a box filter, so a photo shrunk to a terminal keeps its detail rather than
    /// aliasing), weighted by opacity so a transparent pixel's colour does not bleed into its
    /// neighbours. Enlarging repeats pixels.
    public func resized(width newWidth: Int, height newHeight: Int) -> Image {
        guard newWidth > 0, newHeight > 0, width > 0, height > 0 else {
            return Image(width: max(0, newWidth), height: max(0, newHeight), color: .clear)
        }
        var result: [RGBA] = []
        result.reserveCapacity(newWidth * newHeight)
        for row in 0..<newHeight {
            let y0 = row * height / newHeight
            let y1 = max(y0 + 1, (row + 1) * height / newHeight)
            for column in 0..<newWidth {
                let x0 = column * width / newWidth
                let x1 = max(x0 + 1, (column + 1) * width / newWidth)
                var (red, green, blue, alpha) = (0, 0, 0, 0)
                for y in y0..<y1 {
                    for x in x0..<x1 {
                        let pixel = pixels[y * width + x]
                        let weight = Int(pixel.alpha)
                        red += Int(pixel.red) * weight
                        green += Int(pixel.green) * weight
                        blue += Int(pixel.blue) * weight
                        alpha += weight
                    }
                }
                let count = (x1 - x0) * (y1 - y0)
                guard alpha > 0 else {
                    result.append(.clear)
                    continue
                }
                result.append(
                    RGBA(
                        UInt8((red + alpha / 2) / alpha), UInt8((green + alpha / 2) / alpha),
                        UInt8((blue + alpha / 2) / alpha), UInt8((alpha + count / 2) / count)))
            }
        }
        return Image(width: newWidth, height: newHeight, pixels: result)!
    }
}

/// Shows an ``Image`` (`UIImageView`) in true colour with half-block pixels: each cell is two pixels,
/// `▀` with the top pixel as its foreground and the bottom pixel as its background, so a cell (about
/// twice as tall as wide) holds two square pixels.
///
/// The image is scaled to fit the frame keeping its aspect ratio and centred; the rest of the frame,
/// and every transparent pixel (opacity below one half), shows ``backgroundColor`` (`nil`: the
/// terminal's own background). A partly transparent pixel is blended with ``backgroundColor`` when
/// there is one. A cell whose top pixel is transparent and bottom is not draws `▄` instead, so the
/// transparent half keeps the terminal's background. On terminals without true colour the renderer
/// degrades the colours to 256 or 16 (``ColorMode``); under `NO_COLOR` a picture cannot be shown and
/// its cells are blocks in the text colour.
@MainActor
open class ImageView: View {
    /// The picture shown; `nil` shows only the background.
    public var image: Image? {
        didSet { if image != oldValue { scaled = nil; setNeedsDisplay() } }
    }

    /// What transparent pixels and the letterbox show; `nil` is the terminal's background.
    public var backgroundColor: RGB? {
        didSet { if backgroundColor != oldValue { setNeedsDisplay() } }
    }

    /// The image scaled for the last frame size drawn, so an unchanged image is not resampled for
    /// every frame the screen draws (a keystroke elsewhere redraws every view).
    private var scaled: (size: Size, image: Image)?

    /// Creates an image view.
    public init(frame: Rect = Rect(column: 0, row: 0, columns: 0, rows: 0), image: Image? = nil) {
        self.image = image
        super.init(frame: frame)
    }

    /// The size in pixels the image is drawn at inside `frame`: the largest that fits
    /// `columns` × `2 * rows` pixels with the image's aspect ratio (at least one pixel each way).
    public static func fittedSize(of image: Image, in frame: Size) -> (width: Int, height: Int) {
        let available = (width: frame.columns, height: frame.rows * 2)
        guard image.width > 0, image.height > 0, available.width > 0, available.height > 0 else { return (0, 0) }
        // Compare width/height ratios without floating point: the width limits when
        // image.width / image.height >= available.width / available.height.
        if image.width * available.height >= available.width * image.height {
            let height = (image.height * available.width + image.width / 2) / image.width
            return (available.width, min(available.height, max(1, height)))
        }
        let width = (image.width * available.height + image.height / 2) / image.height
        return (min(available.width, max(1, width)), available.height)
    }

    open override func draw(into grid: inout CellGrid) {
        grid.fill(frame, with: Cell(" ", style: CellStyle(background: backgroundColor)))
        guard let image, image.width > 0, image.height > 0 else { return }
        let fitted = Self.fittedSize(of: image, in: frame.size)
        guard fitted.width > 0, fitted.height > 0 else { return }
        let picture: Image
        if let scaled, scaled.size == Size(columns: fitted.width, rows: fitted.height) {
            picture = scaled.image
        } else {
            picture = image.resized(width: fitted.width, height: fitted.height)
            scaled = (Size(columns: fitted.width, rows: fitted.height), picture)
        }
        // Centred; an odd offset in pixel rows would split cells between images, so the vertical
        // offset is counted in whole cells.
        let left = frame.origin.column + (frame.size.columns - fitted.width) / 2
        let top = frame.origin.row + (frame.size.rows - (fitted.height + 1) / 2) / 2
        for row in 0..<((fitted.height + 1) / 2) {
            for column in 0..<fitted.width {
                let upper = color(of: picture[column, row * 2])
                let lower = color(of: picture[column, row * 2 + 1])
                let cell: Cell
                switch (upper, lower) {
                case (nil, nil):
                    cell = Cell(" ")
                case (nil, let lower?):
                    cell = Cell("▄", style: CellStyle(foreground: lower))
                case (let upper?, let lower):
                    cell = Cell("▀", style: CellStyle(foreground: upper, background: lower))
                }
                grid[left + column, top + row] = cell
            }
        }
    }

    /// The colour a pixel shows: itself when opaque; blended with the background when partly
    /// transparent and there is a background colour; `nil` (the terminal's background) when less than
    /// half opaque and there is none.
    private func color(of pixel: RGBA) -> RGB? {
        if pixel.alpha == 255 { return RGB(pixel.red, pixel.green, pixel.blue) }
        guard let background = backgroundColor else {
            return pixel.alpha >= 128 ? RGB(pixel.red, pixel.green, pixel.blue) : nil
        }
        func blend(_ foreground: UInt8, _ background: UInt8) -> UInt8 {
            let alpha = Int(pixel.alpha)
            return UInt8((Int(foreground) * alpha + Int(background) * (255 - alpha) + 127) / 255)
        }
        return RGB(
            blend(pixel.red, background.red), blend(pixel.green, background.green), blend(pixel.blue, background.blue))
    }
}

@MainActor
extension Reactive where Base: ImageView {
    /// Binds to the image shown, as RxCocoa's `UIImageView.rx.image`; bind a sequence of GIF frames
    /// to animate.
    public var image: Binder<Image?> {
        Binder(base) { view, image in view.image = image }
    }
}
