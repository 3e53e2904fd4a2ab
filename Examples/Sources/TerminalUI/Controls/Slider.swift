import RxCocoa
import RxSwift

/// A slider (`UISlider`): a track with a thumb, e.g. `───●──────`; Left and Right move the value by
/// ``step``, Home and End to the ends, each sending `.valueChanged` (so `rx.value` emits). The thumb
/// is in reverse video while focused. Setting ``value`` from code sends no event, as in UIKit.
@MainActor
open class Slider: Control {
    /// The value, kept between ``minimumValue`` and ``maximumValue``.
    public var value: Float {
        get { storedValue }
        set {
            let clamped = newValue.isNaN ? minimumValue : min(maximumValue, max(minimumValue, newValue))
            guard clamped != storedValue else { return }
            storedValue = clamped
            setNeedsDisplay()
        }
    }

    /// The value at the left end.
    public let minimumValue: Float
    /// The value at the right end.
    public let maximumValue: Float
    /// How much one Left or Right changes the value.
    public var step: Float

    /// How the track and the thumb are drawn.
    public var style: CellStyle {
        didSet { if style != oldValue { setNeedsDisplay() } }
    }

    private var storedValue: Float

    /// Creates a slider from `minimumValue` to `maximumValue` (0…1 by default) showing `value`.
    public init(
        frame: Rect = Rect(column: 0, row: 0, columns: 0, rows: 0), value: Float = 0, minimumValue: Float = 0,
        maximumValue: Float = 1, step: Float = 0.1, style: CellStyle = .plain
    ) {
        precondition(minimumValue <= maximumValue, "a slider's minimum must not exceed its maximum")
        self.minimumValue = minimumValue
        self.maximumValue = maximumValue
        self.step = step
        self.style = style
        self.storedValue = minimumValue
        super.init(frame: frame)
        self.value = value
    }

    open override func draw(into grid: inout CellGrid) {
        let columns = frame.size.columns
        grid.fill(frame)
        guard columns > 0 else { return }
        let range = maximumValue - minimumValue
        let fraction = range > 0 ? (value - minimumValue) / range : 0
        let thumb = Int((fraction * Float(columns - 1)).rounded())
        grid.draw(String(repeating: "─", count: columns), at: frame.origin, style: style, clip: frame)
        var thumbStyle = style
        if isFocused { thumbStyle.attributes.insert(.reverse) }
        if !isEnabled { thumbStyle.attributes.insert(.dim) }
        let origin = Point(column: frame.origin.column + thumb, row: frame.origin.row)
        grid.draw("●", at: origin, style: thumbStyle, clip: frame)
    }

    open override var keyHelpTitle: String { "Slider" }

    open override var keyHelp: [(key: String, action: String)] {
        super.keyHelp + [("←→ Home End, click", "set value")]
    }

    /// A press moves the thumb under the pointer.
    open override func handle(mouse event: MouseEvent) -> Bool {
        guard isEnabled, event.action == .press, frame.size.columns > 1 else { return false }
        let old = value
        let fraction = Float(event.location.column - frame.origin.column) / Float(frame.size.columns - 1)
        value = minimumValue + fraction * (maximumValue - minimumValue)
        if value != old { sendActions(for: .valueChanged) }
        return true
    }

    open override func handle(_ key: Key) -> Bool {
        guard isEnabled else { return false }
        let old = value
        switch key {
        case .left: value -= step
        case .right: value += step
        case .home: value = minimumValue
        case .end: value = maximumValue
        default: return false
        }
        if value != old { sendActions(for: .valueChanged) }
        return true
    }
}

@MainActor
extension Reactive where Base: Slider {
    /// The slider's value, as RxCocoa's `UISlider.rx.value`: the current value on subscription and
    /// after each change by a key; a value bound to it moves the thumb without an event.
    public var value: ControlProperty<Float> {
        controlProperty(
            editingEvents: .valueChanged, getter: { $0.value },
            setter: { slider, value in slider.value = value })
    }
}
