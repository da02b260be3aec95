import { contextBridge, ipcRenderer } from 'electron';
import { BRIDGE_SPEC } from '../shared/bridge-spec.ts';
import { buildWindowApi } from './api.ts';

contextBridge.exposeInMainWorld('api', buildWindowApi(ipcRenderer, BRIDGE_SPEC));
