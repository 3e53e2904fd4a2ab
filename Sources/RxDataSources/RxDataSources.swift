@_exported import Differentiator
