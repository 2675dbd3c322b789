public enum _Q {}
