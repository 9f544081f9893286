"""One module per haunt, each registering a `base.HauntPlugin` subclass with
`@register("<haunt key>")`; its data is data/betrayal/haunts/<haunt key>.yaml."""
