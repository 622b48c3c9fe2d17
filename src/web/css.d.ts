// esbuild bundles the imported style sheet into the app's CSS file.
declare module '*.css'
