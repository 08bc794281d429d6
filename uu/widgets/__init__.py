"""ipywidgets views, one per app screen: the only part of uu that imports ipywidgets."""
