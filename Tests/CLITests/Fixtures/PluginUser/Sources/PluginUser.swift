// The app code would live here.
public enum PluginUser {}
