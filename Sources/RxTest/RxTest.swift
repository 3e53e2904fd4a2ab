/// Virtual time of ``TestScheduler``: ticks.
public typealias TestTime = Int
