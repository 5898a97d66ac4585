// Placeholder: this layer is being built (see issues).
